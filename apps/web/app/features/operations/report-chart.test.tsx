import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { barHeight, ChartLegend, PLOT_HEIGHT, ReportChart } from "#app/features/operations/report-chart.tsx";

/** The attributes of each tag `name` in the markup, in order. */
function tags(html: string, name: string): Array<Record<string, string>> {
  return [...html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, "g"))].map((match) =>
    Object.fromEntries([...(match[1] ?? "").matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]])),
  );
}

/** A share of the plot's height, to the hundredth the chart draws. */
const share = (part: number) => Math.round(PLOT_HEIGHT * part * 100) / 100;

/** The chart's markup as the server sends it. */
const chart = (props: Parameters<typeof ReportChart>[0]) => renderToStaticMarkup(<ReportChart {...props} />);

describe("the report chart", () => {
  const html = chart({
    id: "visits",
    title: "Visits per day",
    summary: "12 visits over 3 days; the busiest day was 2 May with 6.",
    series: [{ label: "Chat" }, { label: "Video" }],
    bars: [
      { label: "1 May", values: [2, 1] },
      { label: "2 May", values: [4, 2] },
      { label: "3 May", values: [0, 0] },
    ],
  });

  it("is one image named by its title and described by its summary", () => {
    const [svg] = tags(html, "svg");
    expect(svg).toMatchObject({ role: "img", "aria-labelledby": "visits-title visits-desc" });
    expect(html).toContain('<title id="visits-title">Visits per day</title>');
    expect(html).toContain(
      '<desc id="visits-desc">12 visits over 3 days; the busiest day was 2 May with 6.</desc>',
    );
  });

  it("draws each value as a bar as tall as its share of the largest total, stacked", () => {
    const rects = tags(html, "rect");
    // The empty day draws nothing; the others one segment per series.
    expect(rects.map((rect) => [rect["data-series"], rect["data-value"], Number(rect.height)])).toEqual([
      ["Chat", "2", share(1 / 3)],
      ["Video", "1", share(1 / 6)],
      ["Chat", "4", share(2 / 3)],
      ["Video", "2", share(1 / 3)],
    ]);
    // The largest bar reaches the top of the plot; segments sit on each other.
    const [, , tallChat, tallVideo] = rects;
    expect(Number(tallVideo!.y) + Number(tallVideo!.height)).toBeCloseTo(Number(tallChat!.y), 2);
    expect(Number(tallVideo!.y)).toBe(16);
    expect(html).toContain("1 May");
    expect(html).toContain("3 May");
  });

  it("draws no bar when every value is zero, and no scale above it", () => {
    const empty = chart({
      id: "none",
      title: "Ratings",
      summary: "No rating.",
      series: [{ label: "Ratings" }],
      bars: [{ label: "1", values: [0] }],
    });
    expect(tags(empty, "rect")).toEqual([]);
    expect(empty).not.toContain("stroke-dasharray");
    expect(html).toContain("stroke-dasharray");
    expect(barHeight(0, 0)).toBe(0);
    expect(barHeight(5, 10)).toBe(PLOT_HEIGHT / 2);
  });

  it("keys the series of a stacked chart in text, the swatches hidden", () => {
    const legend = renderToStaticMarkup(<ChartLegend series={[{ label: "Chat" }, { label: "Video" }]} />);
    expect(legend).toContain("Chat");
    expect(legend).toContain('aria-hidden="true"');
    expect(renderToStaticMarkup(<ChartLegend series={[{ label: "Only" }]} />)).toBe("");
  });
});
