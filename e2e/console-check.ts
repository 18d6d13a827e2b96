import { afterEach, expect } from "vitest";
import { takeLoggedErrors, unexpected } from "./browser.ts";

// Every journey fails on a console error or an uncaught exception it does not expect, whichever
// page of whichever context (browser.ts openContext) logged it.
afterEach(() => {
  expect(unexpected(takeLoggedErrors()), "unexpected console errors in the browser").toEqual([]);
});
