import { Fragment, isValidElement, type ReactElement, type ReactNode } from "react";
import { Scripts, type ScriptsProps } from "react-router";
import { deferModuleBootstrap } from "#app/lib/deferred-bootstrap.ts";

type ElementProps = {
  children?: ReactNode;
  rel?: string;
  href?: string;
  type?: string;
  dangerouslySetInnerHTML?: { __html: string };
};

/** The elements of a rendered tree, fragments and arrays flattened, in document order. */
function flatten(node: ReactNode, out: ReactElement<ElementProps>[] = []): ReactElement<ElementProps>[] {
  if (Array.isArray(node)) {
    for (const child of node) flatten(child, out);
  } else if (isValidElement<ElementProps>(node)) {
    if (node.type === Fragment) flatten(node.props.children, out);
    else out.push(node);
  }
  return out;
}

/**
 * React Router's `<Scripts>` with its module loading moved after the first contentful paint
 * (ADR 013): no `<link rel="modulepreload">` in the HTML, and an inline module script that adds
 * them once the page has painted. Same props as `<Scripts>` (the nonce goes to every inline script).
 * Falls back to React Router's own output when it does not look as expected (an SRI import map, a
 * changed script), so an upgrade can cost speed but not hydration.
 */
export function DeferredScripts(props: ScriptsProps) {
  // Called as a function, not rendered: its output is what is rewritten, and its hooks run as this
  // component's (the same ones, in the same order, on every render).
  const rendered = Scripts(props);
  const elements = flatten(rendered);
  if (elements.length === 0) return rendered;
  const preloads: string[] = [];
  const kept: ReactElement<ElementProps>[] = [];
  let moduleScript: ReactElement<ElementProps> | undefined;
  for (const element of elements) {
    const { rel, href, type, dangerouslySetInnerHTML } = element.props;
    if (element.type === "link" && rel === "modulepreload" && href) preloads.push(href);
    else if (element.type === "script" && type === "module" && dangerouslySetInnerHTML && !moduleScript)
      moduleScript = element;
    else if (element.type === "script" && type === "importmap") return rendered;
    else kept.push(element);
  }
  const source = moduleScript?.props.dangerouslySetInnerHTML?.__html;
  const deferred = source === undefined ? null : deferModuleBootstrap(source, preloads);
  if (!moduleScript || deferred === null) return rendered;
  return (
    <>
      {kept.map((element, index) => (
        <Fragment key={element.key ?? index}>{element}</Fragment>
      ))}
      <script
        {...moduleScript.props}
        key="bootstrap"
        suppressHydrationWarning
        // biome-ignore lint/security/noDangerouslySetInnerHtml: React Router's own script, rewritten; the added URLs are the build's (escaped)
        dangerouslySetInnerHTML={{ __html: deferred }}
      />
    </>
  );
}
