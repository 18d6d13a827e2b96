import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { InfoPage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/audio-video-recording-consent-in-ehrs";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/audio-video-recording-consent-in-ehrs");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "audioVideoRecordingConsent");

export default function AudioVideoRecordingConsentPage() {
  return <InfoPage page="audioVideoRecordingConsent" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
