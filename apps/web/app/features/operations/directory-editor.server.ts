import type {
  EditorProvider,
  EditorProviderListQuery,
  ProviderInput,
} from "@ambercare/contracts/directory-editor";
import { userApi, visitorHeaders } from "#app/lib/api.server.ts";
import type { SessionUser } from "#app/lib/session.server.ts";

type Context = { clientIp?: string } | undefined;

/**
 * The directory editor's calls (`/api/operations/directory/…`, ADR 065) with the operator's own
 * token and the visitor's address (signed, ADR 025) for the operations log.
 */
export function directoryEditorApi(request: Request, user: SessionUser, context: Context) {
  const api = userApi(request, user).operations;
  const options = { headers: visitorHeaders(context) };
  return {
    async list(query: EditorProviderListQuery) {
      const answer = await api.directoryList({ query }, options);
      return { rows: answer.data, total: answer.meta.total, perPage: answer.meta.per_page };
    },
    async get(id: string): Promise<EditorProvider> {
      return (await api.directoryGet({ params: { id } }, options)).data;
    },
    async create(body: ProviderInput): Promise<EditorProvider> {
      return (await api.directoryCreate({ body }, options)).data;
    },
    async update(id: string, body: ProviderInput): Promise<EditorProvider> {
      return (await api.directoryUpdate({ params: { id }, body }, options)).data;
    },
    /** The file's bytes as they are: the API decides by their content what they are. */
    async photo(id: string, file: File): Promise<EditorProvider> {
      const upload = {
        bytes: await file.arrayBuffer(),
        headers: { "Content-Type": "application/octet-stream" },
      };
      return (await api.directoryPhoto({ params: { id }, upload }, options)).data;
    },
    async setListed(id: string, listed: boolean): Promise<EditorProvider> {
      const call = listed ? api.directoryRelist : api.directoryUnlist;
      return (await call({ params: { id } }, options)).data;
    },
  };
}
