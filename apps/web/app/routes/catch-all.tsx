import { redirect } from "react-router";

/** Unknown paths redirect to /. Not a page: it has no entry in ROUTE_ACCESS. */
export async function loader() {
  throw redirect("/", 302);
}

export default function CatchAll() {
  return null;
}
