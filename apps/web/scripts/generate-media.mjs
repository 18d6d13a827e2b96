#!/usr/bin/env node
// Draws the site's own media from code, so every picture and clip is ours to publish (no stock, no
// third-party licence): `node apps/web/scripts/generate-media.mjs` (needs ffmpeg for the hero clip).
// The outputs are committed; run this again only to change them.
//
//   public/icons/*.png          app icons of the web manifest (any + maskable) and apple-touch-icon
//   public/images/hero.jpg      the home hero's still (frame 0 of the clip), source of /_img variants
//   public/images/care-team.png a transparent illustration (chat bubble, heart line) for content pages
//   public/media/hero.{webm,mp4} the hero's 4 s loop for the "full" view (ADR 011)
import { spawn } from "node:child_process";
import { mkdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const PUBLIC = join(dirname(fileURLToPath(import.meta.url)), "../public");
const COLORS = { primary: "#F59825", secondary: "#FFD23F", tertiary: "#E4572E", ink: "#1C1917" };
const LOGO_PATH = "M9 23 16 8l7 15h-3.6l-1.4-3.2h-4L12.6 23H9Zm6.1-6.2h1.8L16 14.6l-.9 2.2Z";

/** The logo mark on a full-bleed square; `padding` is the share of the side left around the disc. */
function iconSvg(size, { maskable }) {
  // A maskable icon's safe zone is the centred circle of 80 % diameter: keep the mark inside 60 %.
  const scale = maskable ? 0.6 : 1;
  const mark = (32 * scale) / 32;
  const offset = (size - size * scale) / 2;
  const background = maskable ? `<rect width="${size}" height="${size}" fill="${COLORS.primary}"/>` : "";
  const disc = maskable ? "" : `<circle cx="16" cy="16" r="16" fill="${COLORS.primary}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
    ${background}
    <g transform="translate(${offset} ${offset}) scale(${(size / 32) * mark})">
      ${disc}<path fill="${COLORS.ink}" fill-rule="evenodd" d="${LOGO_PATH}"/>
    </g>
  </svg>`;
}

/** The apple-touch-icon: iOS paints transparency black, so the disc sits on the page's warm white. */
function appleIconSvg(size) {
  const inset = size * 0.1;
  const scale = (size - 2 * inset) / 32;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">
    <rect width="${size}" height="${size}" fill="#FFF7EB"/>
    <g transform="translate(${inset} ${inset}) scale(${scale})">
      <circle cx="16" cy="16" r="16" fill="${COLORS.primary}"/>
      <path fill="${COLORS.ink}" fill-rule="evenodd" d="${LOGO_PATH}"/>
    </g>
  </svg>`;
}

const TAU = Math.PI * 2;

/** A wave across the width: `y = base + amp·sin(2π(x/len) + phase)`, closed to the bottom. */
function wavePath(width, height, base, amplitude, wavelength, phase) {
  const points = [];
  for (let x = 0; x <= width; x += 20) {
    points.push(`${x},${(base + amplitude * Math.sin((TAU * x) / wavelength + phase)).toFixed(1)}`);
  }
  return `M0,${height} L${points.join(" L")} L${width},${height} Z`;
}

/** A heartbeat trace across the middle of the picture. */
function pulsePath(width, y) {
  const beat = (x0) =>
    `L${x0},${y} L${x0 + 18},${y - 10} L${x0 + 30},${y + 6} L${x0 + 44},${y - 70} L${x0 + 60},${y + 48} L${x0 + 74},${y - 16} L${x0 + 88},${y}`;
  let d = `M0,${y}`;
  for (let x = 60; x < width; x += 320) d += ` ${beat(x)} L${x + 240},${y}`;
  return d;
}

/**
 * The hero scene (4:3, drawn on a 1200×900 grid) at loop phase `t` (0…1): warm light, three soft suns drifting on small circles,
 * two waves, a heartbeat line whose bright pulse travels once per loop, and a chat bubble.
 * Every motion is periodic in t, so frame 1 joins frame 0 and the clip loops without a seam.
 */
function heroSvg(width, height, t) {
  const k = width / 1200;
  const a = TAU * t;
  const sun = (cx, cy, r, color, radius, phase, opacity) =>
    `<circle cx="${(cx + radius * Math.cos(a + phase)) * k}" cy="${(cy + radius * Math.sin(a + phase)) * k}" r="${r * k}" fill="${color}" opacity="${opacity}" filter="url(#soft)"/>`;
  const pulse = pulsePath(1200, 480);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#FFF7EB"/><stop offset="0.55" stop-color="#FFE7C2"/><stop offset="1" stop-color="#FFD59A"/>
    </linearGradient>
    <linearGradient id="wave1" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${COLORS.primary}" stop-opacity="0.85"/><stop offset="1" stop-color="${COLORS.tertiary}" stop-opacity="0.9"/>
    </linearGradient>
    <linearGradient id="wave2" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${COLORS.secondary}" stop-opacity="0.9"/><stop offset="1" stop-color="${COLORS.primary}" stop-opacity="0.95"/>
    </linearGradient>
    <filter id="soft" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${28 * k}"/></filter>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#sky)"/>
  ${sun(880, 260, 180, COLORS.secondary, 26, 0, 0.9)}
  ${sun(300, 200, 130, COLORS.primary, 34, 2.1, 0.55)}
  ${sun(640, 590, 160, COLORS.tertiary, 30, 4.2, 0.35)}
  <g transform="scale(${k})">
    <path d="${wavePath(1200, 900, 680, 28, 900, a)}" fill="url(#wave2)"/>
    <path d="${wavePath(1200, 900, 750, 24, 700, -a + 1)}" fill="url(#wave1)"/>
    <path d="${pulse}" fill="none" stroke="#FFFFFF" stroke-opacity="0.55" stroke-width="8" stroke-linejoin="round" stroke-linecap="round"/>
    <path d="${pulse}" fill="none" stroke="${COLORS.ink}" stroke-opacity="0.8" stroke-width="5" stroke-linejoin="round" stroke-linecap="round"
      stroke-dasharray="160 3200" stroke-dashoffset="${(-t * 3360).toFixed(1)}"/>
    <g transform="translate(170 290) rotate(${(-4 + 2 * Math.sin(a)).toFixed(2)})">
      <path d="M0 24 Q0 0 24 0 H196 Q220 0 220 24 V96 Q220 120 196 120 H70 L34 150 L40 120 H24 Q0 120 0 96 Z" fill="#FFFFFF" opacity="0.92"/>
      <rect x="28" y="34" width="140" height="14" rx="7" fill="${COLORS.primary}"/>
      <rect x="28" y="66" width="104" height="14" rx="7" fill="${COLORS.secondary}"/>
    </g>
  </g>
</svg>`;
}

/** A transparent spot illustration: chat bubble with a heart and a pulse, in the brand colours. */
function careTeamSvg(size) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 400 400">
  <circle cx="200" cy="200" r="170" fill="${COLORS.secondary}" opacity="0.35"/>
  <path d="M70 110 Q70 70 110 70 H290 Q330 70 330 110 V230 Q330 270 290 270 H170 L110 330 L120 270 H110 Q70 270 70 230 Z" fill="${COLORS.primary}"/>
  <path d="M200 236 C120 184 140 120 182 128 C192 130 198 138 200 146 C202 138 208 130 218 128 C260 120 280 184 200 236 Z" fill="#FFF7EB"/>
  <path d="M96 180 H150 L162 160 L176 204 L188 180 H212 L222 166 L232 196 L242 180 H304" fill="none" stroke="${COLORS.ink}" stroke-width="8" stroke-linecap="round" stroke-linejoin="round"/>
</svg>`;
}

function run(command, args, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: [input ? "pipe" : "ignore", "ignore", "inherit"] });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}`))));
    if (input) input(child.stdin);
  });
}

async function writeIcons() {
  const dir = join(PUBLIC, "icons");
  mkdirSync(dir, { recursive: true });
  for (const size of [192, 512]) {
    await sharp(Buffer.from(iconSvg(size, { maskable: false })))
      .png({ compressionLevel: 9, palette: true })
      .toFile(join(dir, `icon-${size}.png`));
    await sharp(Buffer.from(iconSvg(size, { maskable: true })))
      .png({ compressionLevel: 9, palette: true })
      .toFile(join(dir, `maskable-${size}.png`));
  }
  await sharp(Buffer.from(appleIconSvg(180)))
    .png({ compressionLevel: 9, palette: true })
    .toFile(join(dir, "apple-touch-icon.png"));
}

async function writeImages() {
  const dir = join(PUBLIC, "images");
  mkdirSync(dir, { recursive: true });
  await sharp(Buffer.from(heroSvg(1600, 1200, 0)))
    .jpeg({ quality: 86, mozjpeg: true })
    .toFile(join(dir, "hero.jpg"));
  await sharp(Buffer.from(careTeamSvg(800)))
    .png({ compressionLevel: 9, palette: true })
    .toFile(join(dir, "care-team.png"));
}

/** Renders the loop's frames with sharp and pipes them to ffmpeg as PNGs. */
async function writeClip({ width, height, fps, seconds }) {
  const dir = join(PUBLIC, "media");
  mkdirSync(dir, { recursive: true });
  const frames = [];
  const count = fps * seconds;
  for (let i = 0; i < count; i++) {
    frames.push(
      await sharp(Buffer.from(heroSvg(width, height, i / count)))
        .png()
        .toBuffer(),
    );
  }
  const feed = (stdin) => {
    for (const frame of frames) stdin.write(frame);
    stdin.end();
  };
  const input = ["-y", "-loglevel", "error", "-f", "image2pipe", "-framerate", String(fps), "-i", "-"];
  await run(
    "ffmpeg",
    [
      ...input,
      ...["-c:v", "libvpx-vp9", "-b:v", "0", "-crf", "42", "-row-mt", "1", "-deadline", "good"],
      ...["-pix_fmt", "yuv420p", "-an", join(dir, "hero.webm")],
    ],
    feed,
  );
  await run(
    "ffmpeg",
    [
      ...input,
      ...["-c:v", "libx264", "-profile:v", "main", "-crf", "30", "-preset", "veryslow"],
      ...["-pix_fmt", "yuv420p", "-movflags", "+faststart", "-an", join(dir, "hero.mp4")],
    ],
    feed,
  );
}

await writeIcons();
await writeImages();
await writeClip({ width: 960, height: 720, fps: 24, seconds: 4 });
for (const file of [
  "icons/icon-192.png",
  "icons/icon-512.png",
  "icons/maskable-192.png",
  "icons/maskable-512.png",
  "icons/apple-touch-icon.png",
  "images/hero.jpg",
  "images/care-team.png",
  "media/hero.webm",
  "media/hero.mp4",
]) {
  console.log(`${file}: ${(statSync(join(PUBLIC, file)).size / 1024).toFixed(1)} KB`);
}
