import { randomBytes } from "node:crypto";
import { MEMBERSHIP_ERRORS, TEST_CARDS } from "@ambercare/contracts/membership-constants";

/**
 * The offline payment adapter (PAYMENTS=demo). It behaves like a card processor for Stripe's test
 * numbers: 4000 0000 0000 0002 is declined, …9995 has insufficient funds, …0341 is accepted but every
 * charge of it fails; any other number passing the Luhn check pays. The number itself is used only
 * inside checkCard and never stored or logged: what remains is brand, last 4 digits and a token.
 */

export type CardInput = {
  card_number: string;
  exp_month: string | number;
  exp_year: string | number;
  cvc: string;
  name: string;
};

export type SavedCard = { token: string; brand: string; last4: string };

export type CardCheck = { ok: true; card: SavedCard } | { ok: false; status: 400 | 402; message: string };

export type ChargeResult =
  | { ok: true; providerPaymentId: string }
  | { ok: false; reason: "card_declined" | "insufficient_funds" };

const FAILING_TOKEN_PREFIX = "demo_tok_fail_";
const TOKEN_PREFIX = "demo_tok_";

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function cardBrand(digits: string): string {
  if (/^4/.test(digits)) return "visa";
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return "mastercard";
  if (/^3[47]/.test(digits)) return "amex";
  if (/^(6011|65|64[4-9])/.test(digits)) return "discover";
  return "card";
}

function wholeNumber(value: string | number): number | undefined {
  const text = String(value).trim();
  return /^\d{1,4}$/.test(text) ? Number(text) : undefined;
}

function declined(message: string): CardCheck {
  return { ok: false, status: 402, message };
}

function invalid(message: string): CardCheck {
  return { ok: false, status: 400, message };
}

export function createDemoPayments() {
  return {
    kind: "demo" as const,

    /** Validates the card as a processor would and, when it is accepted, gives its saved form. */
    checkCard(input: CardInput, now: Date): CardCheck {
      const digits = input.card_number.replaceAll(/[\s-]/g, "");
      if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits))
        return invalid(MEMBERSHIP_ERRORS.invalidCardNumber);
      const month = wholeNumber(input.exp_month);
      let year = wholeNumber(input.exp_year);
      if (year !== undefined && year < 100) year += 2000;
      const thisYear = now.getUTCFullYear();
      if (month === undefined || month < 1 || month > 12 || year === undefined || year > thisYear + 20) {
        return invalid(MEMBERSHIP_ERRORS.invalidExpiry);
      }
      if (year < thisYear || (year === thisYear && month < now.getUTCMonth() + 1)) {
        return invalid(MEMBERSHIP_ERRORS.cardExpired);
      }
      const brand = cardBrand(digits);
      const cvc = input.cvc.trim();
      if (!(brand === "amex" ? /^\d{4}$/ : /^\d{3}$/).test(cvc)) return invalid(MEMBERSHIP_ERRORS.invalidCvc);
      if (input.name.trim() === "") return invalid(MEMBERSHIP_ERRORS.nameRequired);
      if (digits === TEST_CARDS.declined) return declined(MEMBERSHIP_ERRORS.cardDeclined);
      if (digits === TEST_CARDS.insufficientFunds) return declined(MEMBERSHIP_ERRORS.insufficientFunds);
      const prefix = digits === TEST_CARDS.renewalFails ? FAILING_TOKEN_PREFIX : TOKEN_PREFIX;
      return {
        ok: true,
        card: { token: `${prefix}${randomBytes(12).toString("hex")}`, brand, last4: digits.slice(-4) },
      };
    },

    /** Charges a saved card. Idempotency is the caller's: one payment row per idempotency key. */
    async charge(token: string, _amountCents: number): Promise<ChargeResult> {
      if (token.startsWith(FAILING_TOKEN_PREFIX)) return { ok: false, reason: "card_declined" };
      return { ok: true, providerPaymentId: `demo_pay_${randomBytes(12).toString("hex")}` };
    },
  };
}

export type DemoPayments = ReturnType<typeof createDemoPayments>;
