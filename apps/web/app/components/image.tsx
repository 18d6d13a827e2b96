import { type Ref, startTransition, useCallback, useMemo, useState } from "react";
import {
  type ImageFit,
  type ImageModifiers,
  type ImageQuality,
  responsiveImage,
} from "#app/lib/image-modifiers.ts";

/** A transparent 1×1 GIF: what an image shows where its `media` query does not match (no request). */
const EMPTY_PIXEL = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";

export type ImageProps = {
  /** A file under public/images, as "/images/hero.jpg". */
  src: string;
  /** Empty for a decorative image. */
  alt: string;
  /**
   * The largest size the image is shown at, in CSS px. A box of an aspect the image service offers
   * (IMAGE_ASPECT_RATIOS: 1:1, 4:3, 3:2, 16:9 and their portraits) is cropped to it; any other box
   * shows the source's own aspect.
   */
  width: number;
  height: number;
  /** Which width the image takes at each viewport; default "(max-width: {width}px) 100vw, {width}px". */
  sizes?: string;
  /** The LCP image: loaded at once with fetchpriority=high (otherwise lazy). */
  priority?: boolean;
  /** Default webp. */
  format?: ImageModifiers["format"];
  /** Default 75 (the service makes only the qualities the site uses). */
  quality?: ImageQuality;
  fit?: ImageFit;
  /** The source's own width: larger variants are not offered (the service never enlarges). */
  sourceWidth?: number;
  /** Load the image only where this media query matches (where the layout shows it). */
  media?: string;
  /** Classes of the frame (a positioned inline-block that takes the image's size). */
  className?: string;
  /** Classes of the image itself, e.g. "w-full" to fill the frame's width. */
  imgClassName?: string;
  ref?: Ref<HTMLImageElement>;
};

/**
 * Every raster image of the site: a srcset over the screen widths of IMAGE_SCREEN_WIDTHS at densities
 * 1 and 2 (the widths the image service offers) through the same-origin resizing path, width and height always set (no layout shift), lazy
 * unless `priority`, and a 10×10 quality-50 blur-3 placeholder behind it until it has loaded.
 *
 * The CSP forbids inline styles (no 'unsafe-inline', so style="…" attributes are blocked too): the
 * placeholder is therefore not a CSS background but a second <img> stretched behind the first with
 * utility classes, hidden once the image has loaded (a data attribute, not a style). Without
 * JavaScript the loaded image simply paints over it.
 */
export function Image({
  src,
  alt,
  width,
  height,
  sizes,
  priority = false,
  format,
  quality,
  fit,
  sourceWidth,
  media,
  className = "",
  imgClassName = "",
  ref,
}: ImageProps) {
  // Computed once per image, not again in the re-renders that follow hydration.
  const urls = useMemo(
    () => responsiveImage({ src, width, height, sizes, format, quality, fit, sourceWidth }),
    [src, width, height, sizes, format, quality, fit, sourceWidth],
  );
  const [loaded, setLoaded] = useState(false);
  // An image can finish before hydration, when React was not listening yet: check on mount too.
  const mainRef = useCallback(
    (img: HTMLImageElement | null) => {
      // An image that loaded before hydration: a transition, because a state update in a ref callback
      // would otherwise be rendered synchronously inside hydration's commit (one long task).
      if (img?.complete && img.naturalWidth > 1) startTransition(() => setLoaded(true));
      if (typeof ref === "function") ref(img);
      else if (ref) ref.current = img;
    },
    [ref],
  );
  const loading = priority ? "eager" : "lazy";
  return (
    <span
      className={`group relative inline-block max-w-full overflow-hidden align-top ${className}`}
      data-loaded={loaded ? "" : undefined}
    >
      <picture>
        {media ? <source media={media} srcSet={urls.placeholder} /> : null}
        <img
          src={media ? EMPTY_PIXEL : urls.placeholder}
          alt=""
          aria-hidden="true"
          width={width}
          height={height}
          loading={loading}
          decoding="async"
          className="pointer-events-none absolute inset-0 size-full select-none object-fill group-data-loaded:invisible"
        />
      </picture>
      <picture>
        {media ? <source media={media} srcSet={urls.srcSet} sizes={urls.sizes} /> : null}
        <img
          ref={mainRef}
          src={media ? EMPTY_PIXEL : urls.src}
          srcSet={media ? undefined : urls.srcSet}
          sizes={media ? undefined : urls.sizes}
          alt={alt}
          width={width}
          height={height}
          loading={loading}
          decoding={priority ? "auto" : "async"}
          fetchPriority={priority ? "high" : undefined}
          onLoad={(event) => {
            if (event.currentTarget.naturalWidth > 1) setLoaded(true);
          }}
          className={`relative block h-auto max-w-full ${imgClassName}`}
        />
      </picture>
    </span>
  );
}
