import { redirect } from "react-router";

/** Unknown paths redirect to /. Not a page: it has no entry in the page table (lib/pages.ts). */
export async function loader() {
  throw redirect("/", 302);
}

export default function CatchAll() {
  return null;
}
