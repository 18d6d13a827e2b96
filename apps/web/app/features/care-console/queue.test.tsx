import { describe, expect, it } from "vitest";
import { QueueTable } from "#app/features/care-console/queue.tsx";
import { renderInPage } from "#app/lib/render-test-support.tsx";

function emptyQueue(onDuty: boolean, locale: "en" | "bg" = "en"): string {
  return renderInPage(<QueueTable queue={[]} onDuty={onDuty} />, locale);
}

describe("the console's empty queue", () => {
  it("off duty, says which requests will appear and leads to going on duty", () => {
    const html = emptyQueue(false);
    expect(html).toContain('data-testid="queue-empty"');
    expect(html).toMatch(/<h3[^>]*>No visits are waiting for you.<\/h3>/);
    expect(html).toContain("appear here, oldest first, while you are on duty");
    expect(html).toContain('<a href="#duty-title" class="link">Go on duty (Availability)</a>');
    expect(emptyQueue(false, "bg")).toContain("Застъпете на смяна");
  });

  it("on duty, says a request appears as it arrives and leads to the accepted visits", () => {
    const html = emptyQueue(true);
    expect(html).toContain("a new request appears here the moment a patient sends it");
    expect(html).toContain('<a href="#my-visits-title" class="link">Your accepted visits</a>');
    expect(html).not.toContain("#duty-title");
  });
});
