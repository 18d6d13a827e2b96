import { useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import type { LiveEvent, LiveState } from "#app/features/live/live-client.ts";

export type { LiveEvent, LiveState };

/**
 * Calls `onEvent` for each live event of `topics` (ADR 033) while the component is mounted and returns
 * the connection's state for the page to show (connected / reconnecting / offline). The socket code
 * is fetched after the page has rendered, and only by pages that use this hook: it is never part of
 * the first page's JavaScript. Every component of the tab shares one socket.
 */
export function useLiveEvents(topics: readonly string[], onEvent: (event: LiveEvent) => void): LiveState {
  const [state, setState] = useState<LiveState>("connecting");
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const topicsKey = topics.join(",");

  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import("#app/features/live/live-client.ts").then(({ liveClientOfTab }) => {
      if (cancelled) return;
      const client = liveClientOfTab();
      setState(client.state);
      const stopState = client.onState(setState);
      const stopEvents = client.subscribe(topicsKey ? topicsKey.split(",") : [], (event) =>
        handler.current(event),
      );
      stop = () => {
        stopState();
        stopEvents();
      };
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [topicsKey]);

  return state;
}

/**
 * Sends a frame on the tab's live socket (a typing indicator) when it is connected; dropped
 * otherwise. Fetches the socket code like `useLiveEvents`, so call it from event handlers only.
 */
export function sendLiveFrame(frame: { type: string } & Record<string, unknown>): void {
  void import("#app/features/live/live-client.ts").then(({ liveClientOfTab }) => {
    liveClientOfTab().send(frame);
  });
}

/**
 * Re-reads the page's data on each live event of `topics` that `concerns` the page, and once each
 * time the link (re)opens: the socket resumes from "now", so a change between the page's render and
 * the connection (or during an outage) would otherwise be missed. Never polls.
 */
export function useLiveRevalidation(
  topics: readonly string[],
  concerns: (event: LiveEvent) => boolean = () => true,
): LiveState {
  const revalidator = useRevalidator();
  const state = useLiveEvents(topics, (event) => {
    if (concerns(event)) void revalidator.revalidate();
  });
  const wasConnected = useRef(false);
  useEffect(() => {
    if (state === "connected" && !wasConnected.current) void revalidator.revalidate();
    wasConnected.current = state === "connected";
  }, [state, revalidator]);
  return state;
}
