import { VIEWPORT_BREAKPOINTS } from "@ambercare/contracts/theme";
import { useEffect, useRef, useState } from "react";
import { Image } from "#app/components/image.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { useMediaQuery, useViewMode } from "#app/lib/view-mode.ts";

/**
 * The home page hero's media: the still illustration in the reduced view (the default on
 * the server and until the performance helper decides) and a short muted loop over it in the full
 * view. The still stays underneath with the same box, so switching views moves nothing; the clip's
 * first frame is the still, so the switch is not seen either.
 *
 * The hero shows the media from the laptop breakpoint up (home.tsx hides it below): under that width
 * neither the image nor the clip is downloaded, and the helper does not run for it.
 * The clip loops for longer than 5 s, so it has a pause button (WCAG 2.2.2); prefers-reduced-motion
 * means the reduced view, so it never starts for visitors who asked for less motion.
 */
export const HERO_MEDIA_QUERY = `(min-width: ${VIEWPORT_BREAKPOINTS.laptop}px)`;

const STILL = { src: "/images/hero.jpg", sourceWidth: 1600, width: 960, height: 720 } as const;
const CLIP_SOURCES = [
  { src: "/media/hero.webm", type: "video/webm" },
  { src: "/media/hero.mp4", type: "video/mp4" },
] as const;
/** The hero's column: about 43 % of the viewport from 1024 px, at most ~560 px in the 1280 px container. */
const STILL_SIZES = `(min-width: ${VIEWPORT_BREAKPOINTS.desktop}px) 560px, 43vw`;

export function HeroMedia({ className = "" }: { className?: string }) {
  const { t } = useTranslation();
  const shown = useMediaQuery(HERO_MEDIA_QUERY);
  const mode = useViewMode(shown);
  const full = shown && mode === "full";
  const [paused, setPaused] = useState(false);
  const [poster, setPoster] = useState<string | undefined>(undefined);
  const still = useRef<HTMLImageElement>(null);
  const video = useRef<HTMLVideoElement>(null);

  // The poster is the variant of the still the browser already chose: no second download.
  useEffect(() => {
    if (full) setPoster(still.current?.currentSrc || undefined);
  }, [full]);

  useEffect(() => {
    const element = video.current;
    if (!full || !element) return;
    if (paused) element.pause();
    else element.play().catch(() => setPaused(true));
  }, [full, paused]);

  return (
    <div
      data-slot="hero-media"
      data-view-mode={full ? "full" : "reduced"}
      className={`relative isolate w-full overflow-hidden rounded-3xl bg-surface-muted shadow-lg ${className}`}
    >
      <Image
        ref={still}
        src={STILL.src}
        alt=""
        width={STILL.width}
        height={STILL.height}
        sourceWidth={STILL.sourceWidth}
        sizes={STILL_SIZES}
        media={HERO_MEDIA_QUERY}
        priority
        className="block w-full"
        imgClassName="w-full"
      />
      {full ? (
        <>
          <video
            ref={video}
            className="absolute inset-0 size-full object-cover"
            width={STILL.width}
            height={STILL.height}
            poster={poster}
            autoPlay
            muted
            loop
            playsInline
            disablePictureInPicture
            preload="auto"
            aria-hidden="true"
            tabIndex={-1}
          >
            {CLIP_SOURCES.map((source) => (
              <source key={source.src} src={source.src} type={source.type} />
            ))}
          </video>
          <button
            type="button"
            onClick={() => setPaused((value) => !value)}
            className="absolute right-3 bottom-3 inline-flex min-h-11 items-center gap-2 rounded-md border-2 border-ink bg-surface px-3 font-semibold text-ink text-sm shadow-sm hover:bg-surface-muted"
          >
            <svg aria-hidden="true" focusable="false" viewBox="0 0 20 20" className="size-4">
              {paused ? (
                <path d="M6 4l10 6-10 6z" fill="currentColor" />
              ) : (
                <path d="M5 4h3.5v12H5zM11.5 4H15v12h-3.5z" fill="currentColor" />
              )}
            </svg>
            {paused ? t("platform.heroMedia.play") : t("platform.heroMedia.pause")}
          </button>
        </>
      ) : null}
    </div>
  );
}
