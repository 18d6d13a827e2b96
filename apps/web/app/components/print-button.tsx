import { useHydrated } from "#app/components/forms.tsx";

/**
 * "Print" for a page with a print stylesheet. Printing needs a script, so the button appears only
 * once the page is hydrated: without JavaScript the browser's own Print is the way.
 */
export function PrintButton({
  label,
  className = "button-secondary",
}: {
  label: string;
  className?: string;
}) {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <button type="button" className={className} onClick={() => window.print()}>
      {label}
    </button>
  );
}
