import { createHash, randomBytes } from "node:crypto";
import type { ErrorCode } from "@ambercare/contracts/error-codes";
import { MEMBERSHIP_ERRORS, TEST_CARDS } from "@ambercare/contracts/membership-constants";
import {
  cardBrand,
  cardDigits,
  expiryProblem,
  isValidCardNumber,
  isValidCvc,
} from "@ambercare/contracts/payment-card";
import type { CardCheck, PaymentProvider } from "#api/integrations/payments/payment-provider.ts";

/**
 * The offline payment adapter (PAYMENTS=demo). It behaves like a card processor for Stripe's test
 * numbers: 4000 0000 0000 0002 is declined, …9995 has insufficient funds, …0341 is accepted but every
 * charge of it fails; any other valid number (payment-card.ts in contracts) pays. The number is used only
 * inside checkCard and never stored or logged: what remains is brand, last 4 digits and a token.
 * Its checkout page is the web app's `/checkout/{id}`, and Ambercare charges the saved card at each
 * renewal (modules/membership/renewal-service.ts); memberships exist in Ambercare's database only.
 */

const FAILING_TOKEN_PREFIX = "demo_tok_fail_";
const TOKEN_PREFIX = "demo_tok_";

function wholeNumber(value: string | number): number | undefined {
  const text = String(value).trim();
  return /^\d{1,4}$/.test(text) ? Number(text) : undefined;
}

function declined(code: ErrorCode, message: string): CardCheck {
  return { ok: false, status: 402, code, message };
}

function invalid(code: ErrorCode, message: string): CardCheck {
  return { ok: false, status: 400, code, message };
}

export function createDemoPayments(settings: { webUrl: string }): PaymentProvider {
  return {
    name: "demo",
    takesCardDetails: true,

    async startCheckout(input) {
      return { url: `${settings.webUrl}/checkout/${input.checkoutId}`, sessionId: null };
    },

    /** Validates the card as a processor would and, when it is accepted, gives its saved form. */
    checkCard(input, now) {
      const digits = cardDigits(input.card_number);
      if (!isValidCardNumber(digits))
        return invalid("CARD_NUMBER_INVALID", MEMBERSHIP_ERRORS.invalidCardNumber);
      const month = wholeNumber(input.exp_month);
      let year = wholeNumber(input.exp_year);
      if (year !== undefined && year < 100) year += 2000;
      const expiry = month === undefined || year === undefined ? "invalid" : expiryProblem(month, year, now);
      if (expiry === "invalid") return invalid("CARD_EXPIRY_INVALID", MEMBERSHIP_ERRORS.invalidExpiry);
      if (expiry === "expired") return invalid("CARD_EXPIRED", MEMBERSHIP_ERRORS.cardExpired);
      const brand = cardBrand(digits);
      if (!isValidCvc(input.cvc.trim(), brand)) return invalid("CVC_INVALID", MEMBERSHIP_ERRORS.invalidCvc);
      if (input.name.trim() === "") return invalid("CARD_NAME_REQUIRED", MEMBERSHIP_ERRORS.nameRequired);
      if (digits === TEST_CARDS.declined) return declined("CARD_DECLINED", MEMBERSHIP_ERRORS.cardDeclined);
      if (digits === TEST_CARDS.insufficientFunds)
        return declined("INSUFFICIENT_FUNDS", MEMBERSHIP_ERRORS.insufficientFunds);
      const prefix = digits === TEST_CARDS.renewalFails ? FAILING_TOKEN_PREFIX : TOKEN_PREFIX;
      return {
        ok: true,
        card: { token: `${prefix}${randomBytes(12).toString("hex")}`, brand, last4: digits.slice(-4) },
      };
    },

    async charge(token) {
      if (token.startsWith(FAILING_TOKEN_PREFIX)) return { ok: false, reason: "card_declined" };
      return { ok: true, providerPaymentId: `demo_pay_${randomBytes(12).toString("hex")}` };
    },

    // Nothing outside Ambercare holds a demo membership: the database change is the whole change.
    async setCancelAtPeriodEnd() {},
    async cancelNow() {},
    async changePlanAtRenewal() {},

    /** The demo's refunds exist only as the invoice's record; the key names the same one each time. */
    async refund(input) {
      const id = createHash("sha256").update(input.idempotencyKey).digest("hex").slice(0, 24);
      return { providerRefundId: `demo_re_${id}` };
    },
  };
}
