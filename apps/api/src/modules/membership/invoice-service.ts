import type { Invoice } from "@ambercare/contracts/membership";
import { MEMBERSHIP_ERRORS } from "@ambercare/contracts/membership-constants";
import type { AuthContext } from "#api/modules/accounts/session-service.ts";
import {
  type MembershipDeps,
  ownAccountOnly,
  toInvoice,
} from "#api/modules/membership/membership-records.ts";
import { createMembershipRepository } from "#api/modules/membership/membership-repository.ts";
import { AppError } from "#api/platform/errors.ts";

/**
 * The billing history: one invoice per paid checkout and per membership period, numbered AC-000001…
 * (the receipt page reads one). Owner only.
 */
export function createInvoiceService(deps: Pick<MembershipDeps, "db">) {
  const { db } = deps;
  return {
    async listInvoices(auth: AuthContext): Promise<Invoice[]> {
      if (auth.isServiceAccount) throw ownAccountOnly();
      const repository = createMembershipRepository(db);
      const rows = await repository.listInvoices(auth.userId);
      const refunds = await repository.refundsOf(rows.map((row) => row.id));
      return rows.map((row) => toInvoice(row, refunds));
    },

    async getInvoice(auth: AuthContext, id: string): Promise<Invoice> {
      const repository = createMembershipRepository(db);
      const row = await repository.findInvoice(id.toLowerCase());
      if (!row) throw new AppError("INVOICE_NOT_FOUND", 404, MEMBERSHIP_ERRORS.invoiceNotFound);
      if (auth.isServiceAccount || row.userId !== auth.userId) throw ownAccountOnly(row.userId, row.id);
      return toInvoice(row, await repository.refundsOf([row.id]));
    },
  };
}
