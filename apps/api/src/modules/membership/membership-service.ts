import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import type {
  CancelFeedbackRequest,
  Checkout,
  Invoice,
  PayCheckoutRequest,
  Subscription,
} from "@ambercare/contracts/membership";
import {
  type BillingInterval,
  CHECKOUT_TTL_HOURS,
  type CheckoutKind,
  chargeForInterval,
  DEFAULT_RETURN_PATHS,
  MEMBERSHIP_ERRORS,
  PLAN_FOR_INTERVAL,
  RENEWAL_RETRY_DAYS,
  type SubscriptionStatus,
  TRIAL_DAYS,
  type VisitPlanKey,
} from "@ambercare/contracts/membership-constants";
import { PLANS, type PlanKey } from "@ambercare/contracts/plans";
import type { Database, Executor } from "@ambercare/db/client";
import type { FastifyBaseLogger } from "fastify";
import type { DemoPayments } from "#api/integrations/payments/demo-payments.ts";
import type { StripePayments } from "#api/integrations/payments/stripe-payments.ts";
import type { AuthContext } from "#api/modules/accounts/session-service.ts";
import {
  type CheckoutRow,
  createMembershipRepository,
  type InvoiceRow,
  type MembershipRepository,
  type SubscriptionRow,
} from "#api/modules/membership/membership-repository.ts";
import {
  givesAccess,
  type TransitionReason,
  transitionPath,
} from "#api/modules/membership/subscription-states.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The parts of Stripe's event objects this service reads (all optional: payloads vary by version). */
// biome-ignore lint/suspicious/noExplicitAny: a webhook payload is untyped JSON, read defensively below
export type StripeObject = Record<string, any>;
export type StripeEvent = { id: string; type: string; data: { object: StripeObject } };

const str = (value: unknown): string | undefined =>
  typeof value === "string" && value !== ""
    ? value
    : typeof value === "object" && value && "id" in value && typeof value.id === "string"
      ? value.id
      : undefined;
const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isInteger(value) ? value : undefined;
const seconds = (value: unknown): Date | undefined =>
  typeof value === "number" ? new Date(value * 1000) : undefined;
/** A clock jump of years renews one period at a time; this bounds one run of one membership. */
const MAX_PERIODS_PER_RUN = 500;

export type Payments = DemoPayments | StripePayments;

export type MembershipDeps = {
  db: Database;
  clock: Clock;
  payments: Payments;
  /** The web app's origin (checkout page, return links). */
  webUrl: string;
  log: FastifyBaseLogger;
  /** Stripe price id → plan (PAYMENTS=stripe). */
  stripePrices?: Readonly<Record<PlanKey, string>>;
};

export type Entitlement = { member: boolean; visitCredits: { chat: number; video: number } };

/** Calendar arithmetic in UTC: Jan 31 + 1 month = Feb 28 (or 29), never Mar 3. */
export function addInterval(date: Date, interval: BillingInterval): Date {
  const year = date.getUTCFullYear() + (interval === "year" ? 1 : 0);
  const month = date.getUTCMonth() + (interval === "month" ? 1 : 0);
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const result = new Date(date);
  result.setUTCFullYear(year, month, Math.min(date.getUTCDate(), lastDay));
  return result;
}

/** Refused; with `ownerUserId`, the attempt on that patient's membership is audited. */
function ownAccountOnly(ownerUserId?: string, resourceId: string | null = null): AppError {
  return new AppError("OWN_ACCOUNT_ONLY", 403, AUTH_ERRORS.ownAccountOnly, {
    ...(ownerUserId ? { refusedAccess: { ownerUserId, resourceType: "membership", resourceId } } : {}),
  });
}

/** The caller may act only for their own user id (ADR 010); the service account for nobody. */
function assertSelf(auth: AuthContext, userId: string): string {
  const id = userId.toLowerCase();
  if (auth.isServiceAccount || auth.userId !== id) throw ownAccountOnly(id);
  return id;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toSubscription(row: SubscriptionRow): Subscription {
  const status = row.status as SubscriptionStatus;
  const interval = row.interval as BillingInterval;
  const nextInterval = (row.pendingInterval ?? row.interval) as BillingInterval;
  const nextChargeAt =
    status === "trialing" || status === "active"
      ? row.currentPeriodEnd
      : status === "past_due"
        ? row.retryAt
        : null;
  return {
    id: row.id,
    plan: PLAN_FOR_INTERVAL[interval] as Subscription["plan"],
    interval,
    status,
    trial_ends_at: iso(row.trialEndsAt),
    current_period_start: row.currentPeriodStart.toISOString(),
    current_period_end: row.currentPeriodEnd.toISOString(),
    cancel_at_period_end: row.cancelAtPeriodEnd,
    canceled_at: iso(row.canceledAt),
    ended_at: iso(row.endedAt),
    next_charge_at: iso(nextChargeAt),
    next_charge_amount_cents: nextChargeAt ? chargeForInterval(nextInterval) : null,
    pending_interval: (row.pendingInterval as BillingInterval | null) ?? null,
    payment_method: row.cardBrand && row.cardLast4 ? { brand: row.cardBrand, last4: row.cardLast4 } : null,
  };
}

export function toInvoice(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    number: `AC-${String(row.seq).padStart(6, "0")}`,
    issued_at: row.issuedAt.toISOString(),
    paid_at: iso(row.paidAt),
    plan: row.plan as PlanKey,
    description: row.description,
    amount_cents: row.amountCents,
    currency: "usd",
    status: row.status as Invoice["status"],
    period_start: iso(row.periodStart),
    period_end: iso(row.periodEnd),
    payment_method: row.cardBrand && row.cardLast4 ? { brand: row.cardBrand, last4: row.cardLast4 } : null,
  };
}

const day = (date: Date) => date.toISOString().slice(0, 10);

export function invoiceDescription(plan: PlanKey, periodStart: Date | null, periodEnd: Date | null): string {
  switch (plan) {
    case "subscription_monthly":
    case "subscription_yearly": {
      const name = plan === "subscription_monthly" ? "monthly" : "yearly";
      const period = periodStart && periodEnd ? `, ${day(periodStart)} to ${day(periodEnd)}` : "";
      return `Ambercare membership (${name})${period}`;
    }
    case "ppv_chat":
      return "Ambercare one-time chat visit";
    case "ppv_video":
      return "Ambercare one-time video visit";
  }
}

/**
 * Memberships, checkouts, invoices and one-time visits (docs/decisions/015-membership-and-billing.md).
 * Status changes go through the repository's changeStatus, which enforces the transition table.
 */
export function createMembershipService(deps: MembershipDeps) {
  const { db, clock, payments } = deps;
  const demo = payments.kind === "demo" ? payments : undefined;
  const stripe = payments.kind === "stripe" ? payments : undefined;
  const webOrigin = new URL(deps.webUrl).origin;
  const planForPrice = (priceId: string): PlanKey | undefined =>
    (Object.entries(deps.stripePrices ?? {}) as Array<[PlanKey, string]>).find(
      ([, id]) => id === priceId,
    )?.[0];

  /** `last_url` as a path on the site; anything leading elsewhere is refused (no open redirect). */
  function returnPath(lastUrl: string | undefined, kind: CheckoutKind): string {
    if (lastUrl === undefined) return DEFAULT_RETURN_PATHS[kind];
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    if (/[\u0000-\u001f\\]/.test(lastUrl))
      throw new AppError("RETURN_URL_INVALID", 400, MEMBERSHIP_ERRORS.badReturnUrl);
    if (lastUrl.startsWith("/") && !lastUrl.startsWith("//")) return lastUrl;
    let url: URL;
    try {
      url = new URL(lastUrl);
    } catch {
      throw new AppError("RETURN_URL_INVALID", 400, MEMBERSHIP_ERRORS.badReturnUrl);
    }
    if (url.origin !== webOrigin)
      throw new AppError("RETURN_URL_INVALID", 400, MEMBERSHIP_ERRORS.badReturnUrl);
    return `${url.pathname}${url.search}${url.hash}`;
  }

  function checkoutStatus(row: CheckoutRow, now: Date): Checkout["status"] {
    if (row.paidAt) return "paid";
    return now >= row.expiresAt ? "expired" : "open";
  }

  async function ownCheckout(repo: MembershipRepository, auth: AuthContext, id: string, lock: boolean) {
    const row = await repo.findCheckout(id.toLowerCase(), lock);
    if (!row) throw new AppError("CHECKOUT_NOT_FOUND", 404, MEMBERSHIP_ERRORS.checkoutNotFound);
    if (auth.isServiceAccount || row.userId !== auth.userId) throw ownAccountOnly(row.userId, row.id);
    return row;
  }

  async function createCheckout(input: {
    userId: string;
    kind: CheckoutKind;
    plan: PlanKey;
    trialDays: number;
    lastUrl: string | undefined;
  }): Promise<{ checkout_url: string }> {
    const now = clock.now();
    const path = returnPath(input.lastUrl, input.kind);
    const repo = createMembershipRepository(db);
    const checkout = await repo.insertCheckout({
      userId: input.userId,
      kind: input.kind,
      plan: input.plan,
      amountCents: PLANS[input.plan].chargeCents,
      trialDays: input.trialDays,
      returnPath: path,
      provider: payments.kind,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CHECKOUT_TTL_HOURS * 3600_000),
    });
    if (!stripe) return { checkout_url: `${deps.webUrl}/checkout/${checkout.id}` };
    const email = (await repo.findUserEmail(input.userId)) ?? "";
    const session = await callProvider(() =>
      stripe.createCheckoutSession({
        checkoutId: checkout.id,
        plan: input.plan,
        mode: input.kind === "subscription" ? "subscription" : "payment",
        trialDays: input.trialDays,
        customerEmail: email,
        successUrl: `${deps.webUrl}${path}`,
        cancelUrl: `${deps.webUrl}${input.kind === "subscription" ? "/pricing-options" : "/one-time-visit"}`,
      }),
    );
    await repo.setCheckoutSession(checkout.id, session.id);
    return { checkout_url: session.url };
  }

  async function callProvider<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      deps.log.error({ err: error }, "payment provider call failed");
      throw new AppError("PAYMENT_PROVIDER_UNAVAILABLE", 502, MEMBERSHIP_ERRORS.providerUnavailable);
    }
  }

  async function requireLive(repo: MembershipRepository, userId: string): Promise<SubscriptionRow> {
    const row = await repo.findLiveSubscription(userId, true);
    if (!row) throw new AppError("NO_SUBSCRIPTION", 404, MEMBERSHIP_ERRORS.noSubscription);
    return row;
  }

  /**
   * One charge of an invoice under its own idempotency key: a key seen before answers with the
   * earlier outcome and charges nothing.
   */
  async function attemptCharge(
    repo: MembershipRepository,
    invoice: InvoiceRow,
    token: string,
    attemptKey: string,
    at: Date,
  ): Promise<boolean> {
    const earlier = await repo.findPayment(attemptKey);
    if (earlier) return earlier.outcome === "succeeded";
    // Only demo memberships are charged here: Stripe charges its own and reports by webhook.
    if (!demo) throw new Error("saved cards are charged by the demo adapter only");
    const result = await demo.charge(token, invoice.amountCents);
    await repo.insertPayment({
      invoiceId: invoice.id,
      idempotencyKey: attemptKey,
      amountCents: invoice.amountCents,
      outcome: result.ok ? "succeeded" : "failed",
      failureReason: result.ok ? null : result.reason,
      providerPaymentId: result.ok ? result.providerPaymentId : null,
      createdAt: at,
    });
    if (result.ok) await repo.updateInvoice(invoice.id, { status: "paid", paidAt: at });
    return result.ok;
  }

  async function stripeCheckoutCompleted(repo: MembershipRepository, session: StripeObject, now: Date) {
    const checkoutId = str(session.metadata?.checkout_id) ?? str(session.client_reference_id);
    const checkout =
      checkoutId && /^[0-9a-f-]{36}$/i.test(checkoutId)
        ? await repo.findCheckout(checkoutId, true)
        : undefined;
    if (!checkout) return false;
    if (checkout.paidAt) return true;
    const plan = checkout.plan as PlanKey;
    if (checkout.kind === "visit") {
      await repo.upsertInvoice({
        userId: checkout.userId,
        checkoutId: checkout.id,
        idempotencyKey: `checkout:${checkout.id}`,
        plan,
        description: invoiceDescription(plan, null, null),
        amountCents: num(session.amount_total) ?? checkout.amountCents,
        status: "paid",
        issuedAt: now,
        paidAt: now,
      });
      await repo.insertVisitCredit({
        userId: checkout.userId,
        type: PLANS[plan].visitType ?? "chat",
        checkoutId: checkout.id,
        createdAt: now,
      });
      await repo.markCheckoutPaid(checkout.id, now, null);
      return true;
    }
    const providerSubscriptionId = str(session.subscription);
    if (!providerSubscriptionId) return false;
    const existing = await repo.findSubscriptionByProviderId(providerSubscriptionId);
    if (existing || (await repo.findLiveSubscription(checkout.userId, true))) {
      // Two checkouts paid in parallel: the second Stripe subscription needs a refund by hand.
      if (!existing) {
        deps.log.warn(
          { checkoutId: checkout.id, providerSubscriptionId },
          "second membership paid; refund it",
        );
      }
      await repo.markCheckoutPaid(checkout.id, now, existing?.id ?? null);
      return existing !== undefined;
    }
    const interval = PLANS[plan].interval as BillingInterval;
    const trialEnd = checkout.trialDays > 0 ? new Date(now.getTime() + checkout.trialDays * DAY_MS) : null;
    // Provisional period: customer.subscription.updated brings Stripe's own dates.
    const subscription = await repo.createSubscription(
      {
        userId: checkout.userId,
        plan,
        interval,
        status: trialEnd ? "trialing" : "active",
        trialEndsAt: trialEnd,
        currentPeriodStart: now,
        currentPeriodEnd: trialEnd ?? addInterval(now, interval),
        provider: "stripe",
        providerSubscriptionId,
        providerCustomerId: str(session.customer) ?? null,
        createdAt: now,
      },
      trialEnd ? "checkout_trial" : "checkout_paid",
    );
    await repo.markCheckoutPaid(checkout.id, now, subscription.id);
    return true;
  }

  async function knownSubscription(repo: MembershipRepository, providerSubscriptionId: string | undefined) {
    const sub = providerSubscriptionId
      ? await repo.findSubscriptionByProviderId(providerSubscriptionId)
      : undefined;
    if (!sub)
      throw new AppError("SUBSCRIPTION_UNKNOWN_YET", 409, "Unknown subscription; send the event again later");
    return sub;
  }

  /** Moves along the shortest allowed path; the patch lands with the last step. */
  async function moveTo(
    repo: MembershipRepository,
    sub: SubscriptionRow,
    to: SubscriptionStatus,
    reason: TransitionReason,
    now: Date,
    patch: Parameters<MembershipRepository["updateSubscription"]>[1],
  ): Promise<SubscriptionRow> {
    const path = transitionPath(sub.status as SubscriptionStatus, to);
    if (path === undefined) {
      deps.log.warn(
        { subscriptionId: sub.id, from: sub.status, to },
        "provider reported a status outside the graph",
      );
      return sub;
    }
    if (path.length === 0) return repo.updateSubscription(sub.id, patch, now);
    let current = sub;
    for (const [index, step] of path.entries()) {
      current = await repo.changeStatus(current, step, reason, now, index === path.length - 1 ? patch : {});
    }
    return current;
  }

  async function stripeInvoice(repo: MembershipRepository, invoice: StripeObject, paid: boolean, now: Date) {
    const sub = await knownSubscription(
      repo,
      str(invoice.subscription) ?? str(invoice.parent?.subscription_details?.subscription),
    );
    const amount = num(paid ? invoice.amount_paid : invoice.amount_due) ?? 0;
    const line = invoice.lines?.data?.[0]?.period;
    const periodStart = seconds(line?.start) ?? sub.currentPeriodStart;
    const periodEnd = seconds(line?.end) ?? sub.currentPeriodEnd;
    const invoiceId = str(invoice.id) ?? "";
    // A trial's $0 invoice is no charge: nothing to show in the billing history.
    if (amount > 0) {
      const row = await repo.upsertInvoice({
        userId: sub.userId,
        subscriptionId: sub.id,
        idempotencyKey: `stripe:${invoiceId}`,
        providerInvoiceId: invoiceId,
        plan: sub.plan,
        description: invoiceDescription(sub.plan as PlanKey, periodStart, periodEnd),
        amountCents: amount,
        status: paid ? "paid" : "failed",
        periodStart,
        periodEnd,
        issuedAt: seconds(invoice.created) ?? now,
        paidAt: paid ? now : null,
      });
      await repo.updateInvoice(
        row.id,
        paid ? { status: "paid", paidAt: row.paidAt ?? now } : { status: "failed", paidAt: null },
      );
    }
    const status = sub.status as SubscriptionStatus;
    if (paid && amount > 0 && (status === "trialing" || status === "past_due")) {
      await moveTo(repo, sub, "active", status === "trialing" ? "trial_converted" : "retry_paid", now, {
        currentPeriodStart: periodStart,
        currentPeriodEnd: periodEnd,
        failedAttempts: 0,
        retryAt: null,
      });
    } else if (!paid && (status === "trialing" || status === "active")) {
      await moveTo(repo, sub, "past_due", "renewal_failed", now, {
        failedAttempts: sub.failedAttempts + 1,
        retryAt: seconds(invoice.next_payment_attempt) ?? null,
      });
    }
  }

  async function stripeSubscriptionChanged(
    repo: MembershipRepository,
    object: StripeObject,
    deleted: boolean,
    now: Date,
  ) {
    const sub = await knownSubscription(repo, str(object.id));
    const stripeStatus = str(object.status);
    const cancelAtPeriodEnd = object.cancel_at_period_end === true;
    let target: SubscriptionStatus | undefined;
    if (deleted || stripeStatus === "canceled" || stripeStatus === "incomplete_expired") target = "ended";
    else if (stripeStatus === "past_due" || stripeStatus === "unpaid") target = "past_due";
    else if ((stripeStatus === "trialing" || stripeStatus === "active") && cancelAtPeriodEnd)
      target = "canceled";
    else if (stripeStatus === "trialing" || stripeStatus === "active") target = stripeStatus;
    if (!target) return;
    const item = object.items?.data?.[0];
    const priceId = str(item?.price?.id);
    const plan = priceId ? planForPrice(priceId) : undefined;
    const interval = plan ? (PLANS[plan].interval as BillingInterval | null) : null;
    await moveTo(repo, sub, target, "provider_update", now, {
      currentPeriodStart:
        seconds(item?.current_period_start ?? object.current_period_start) ?? sub.currentPeriodStart,
      currentPeriodEnd:
        seconds(item?.current_period_end ?? object.current_period_end) ?? sub.currentPeriodEnd,
      cancelAtPeriodEnd,
      canceledAt: seconds(object.canceled_at) ?? (cancelAtPeriodEnd ? (sub.canceledAt ?? now) : null),
      trialEndsAt: seconds(object.trial_end) ?? sub.trialEndsAt,
      ...(target === "ended" ? { endedAt: seconds(object.ended_at) ?? now } : {}),
      ...(plan && interval ? { plan, interval, pendingInterval: null } : {}),
    });
  }

  /** Renews, retries or ends one demo membership for every period that is due at `now`. */
  async function settle(tx: Executor, subscriptionId: string, now: Date): Promise<void> {
    const repo = createMembershipRepository(tx);
    let sub = await repo.findSubscription(subscriptionId, true);
    for (let i = 0; sub && i < MAX_PERIODS_PER_RUN; i++) {
      const status = sub.status as SubscriptionStatus;
      const periodEnd = sub.currentPeriodEnd;
      if (status === "canceled" && periodEnd <= now) {
        sub = await repo.changeStatus(sub, "ended", "period_ended", now, { endedAt: periodEnd });
        return;
      }
      const renewalDue = (status === "trialing" || status === "active") && periodEnd <= now;
      const retryDue = status === "past_due" && sub.retryAt !== null && sub.retryAt <= now;
      if (!renewalDue && !retryDue) return;

      const nextInterval = (sub.pendingInterval ?? sub.interval) as BillingInterval;
      const plan = PLAN_FOR_INTERVAL[nextInterval];
      const nextEnd = addInterval(periodEnd, nextInterval);
      const invoiceKey = `renewal:${sub.id}:${periodEnd.toISOString()}`;
      const invoice = await repo.upsertInvoice({
        userId: sub.userId,
        subscriptionId: sub.id,
        idempotencyKey: invoiceKey,
        plan,
        description: invoiceDescription(plan, periodEnd, nextEnd),
        amountCents: chargeForInterval(nextInterval),
        status: "open",
        periodStart: periodEnd,
        periodEnd: nextEnd,
        cardBrand: sub.cardBrand,
        cardLast4: sub.cardLast4,
        issuedAt: periodEnd,
      });
      const attempt = sub.failedAttempts + 1;
      const chargedAt = retryDue && sub.retryAt ? sub.retryAt : periodEnd;
      const paid = await attemptCharge(
        repo,
        invoice,
        sub.paymentToken ?? "",
        `${invoiceKey}:attempt:${attempt}`,
        chargedAt,
      );
      const renewed = {
        interval: nextInterval,
        plan,
        pendingInterval: null,
        currentPeriodStart: periodEnd,
        currentPeriodEnd: nextEnd,
        failedAttempts: 0,
        retryAt: null,
      };
      if (paid) {
        sub =
          status === "active"
            ? await repo.updateSubscription(sub.id, renewed, now)
            : await repo.changeStatus(
                sub,
                "active",
                status === "trialing" ? "trial_converted" : "retry_paid",
                now,
                renewed,
              );
      } else if (status === "past_due") {
        await repo.updateInvoice(invoice.id, { status: "void" });
        sub = await repo.changeStatus(sub, "ended", "retry_failed", now, {
          endedAt: chargedAt,
          failedAttempts: attempt,
        });
        return;
      } else {
        await repo.updateInvoice(invoice.id, { status: "failed" });
        sub = await repo.changeStatus(sub, "past_due", "renewal_failed", now, {
          failedAttempts: attempt,
          retryAt: new Date(periodEnd.getTime() + RENEWAL_RETRY_DAYS * DAY_MS),
        });
      }
    }
  }

  return {
    async startSubscriptionCheckout(
      auth: AuthContext,
      input: { user_id: string; interval: BillingInterval; last_url?: string | undefined },
    ) {
      const userId = assertSelf(auth, input.user_id);
      const repo = createMembershipRepository(db);
      if (await repo.findLiveSubscription(userId)) {
        throw new AppError("ALREADY_SUBSCRIBED", 409, MEMBERSHIP_ERRORS.alreadySubscribed);
      }
      const trialDays = (await repo.hasEverSubscribed(userId)) ? 0 : TRIAL_DAYS;
      return createCheckout({
        userId,
        kind: "subscription",
        plan: PLAN_FOR_INTERVAL[input.interval],
        trialDays,
        lastUrl: input.last_url,
      });
    },

    async startVisitCheckout(
      auth: AuthContext,
      input: { user_id: string; plan: VisitPlanKey; last_url?: string | undefined },
    ) {
      const userId = assertSelf(auth, input.user_id);
      return createCheckout({
        userId,
        kind: "visit",
        plan: input.plan,
        trialDays: 0,
        lastUrl: input.last_url,
      });
    },

    async getCheckout(auth: AuthContext, id: string): Promise<Checkout> {
      const row = await ownCheckout(createMembershipRepository(db), auth, id, false);
      return {
        id: row.id,
        kind: row.kind as CheckoutKind,
        plan: row.plan as PlanKey,
        amount_cents: row.amountCents,
        currency: "usd",
        trial_days: row.trialDays,
        status: checkoutStatus(row, clock.now()),
        return_url: row.returnPath,
        expires_at: row.expiresAt.toISOString(),
      };
    },

    /**
     * The demo checkout page's payment. The checkout row stays locked while it is paid, so a double
     * submit waits and then finds it paid: same answer, no second charge.
     */
    async payCheckout(auth: AuthContext, id: string, card: PayCheckoutRequest) {
      if (!demo) throw new AppError("DEMO_PAYMENTS_ONLY", 409, MEMBERSHIP_ERRORS.demoPaymentsOnly);
      return db.transaction(async (tx) => {
        const repo = createMembershipRepository(tx);
        const checkout = await ownCheckout(repo, auth, id, true);
        const now = clock.now();
        const answer = { status: "paid" as const, return_url: checkout.returnPath };
        if (checkout.paidAt) return answer;
        if (now >= checkout.expiresAt)
          throw new AppError("CHECKOUT_EXPIRED", 410, MEMBERSHIP_ERRORS.checkoutExpired);
        const check = demo.checkCard(card, now);
        if (!check.ok) {
          throw new AppError(check.code, check.status, check.message);
        }
        const saved = check.card;
        const plan = checkout.plan as PlanKey;
        const declined = () => new AppError("CARD_DECLINED", 402, MEMBERSHIP_ERRORS.cardDeclined);

        if (checkout.kind === "visit") {
          const invoice = await repo.upsertInvoice({
            userId: checkout.userId,
            checkoutId: checkout.id,
            idempotencyKey: `checkout:${checkout.id}`,
            plan,
            description: invoiceDescription(plan, null, null),
            amountCents: checkout.amountCents,
            status: "open",
            cardBrand: saved.brand,
            cardLast4: saved.last4,
            issuedAt: now,
          });
          if (!(await attemptCharge(repo, invoice, saved.token, `checkout:${checkout.id}:attempt:1`, now))) {
            throw declined();
          }
          await repo.insertVisitCredit({
            userId: checkout.userId,
            type: PLANS[plan].visitType ?? "chat",
            checkoutId: checkout.id,
            createdAt: now,
          });
          await repo.markCheckoutPaid(checkout.id, now, null);
          return answer;
        }

        if (await repo.findLiveSubscription(checkout.userId, true)) {
          throw new AppError("ALREADY_SUBSCRIBED", 409, MEMBERSHIP_ERRORS.alreadySubscribed);
        }
        const interval = PLANS[plan].interval as BillingInterval;
        const savedCard = { paymentToken: saved.token, cardBrand: saved.brand, cardLast4: saved.last4 };
        // The trial is decided again here: another checkout may have been paid since this one began.
        const trial = checkout.trialDays > 0 && !(await repo.hasEverSubscribed(checkout.userId));
        let subscription: SubscriptionRow;
        if (trial) {
          const trialEnd = new Date(now.getTime() + checkout.trialDays * DAY_MS);
          subscription = await repo.createSubscription(
            {
              userId: checkout.userId,
              plan,
              interval,
              status: "trialing",
              trialEndsAt: trialEnd,
              currentPeriodStart: now,
              currentPeriodEnd: trialEnd,
              provider: "demo",
              ...savedCard,
              createdAt: now,
            },
            "checkout_trial",
          );
        } else {
          const periodEnd = addInterval(now, interval);
          // A declined charge throws, and the transaction takes the new membership back with it.
          subscription = await repo.createSubscription(
            {
              userId: checkout.userId,
              plan,
              interval,
              status: "active",
              currentPeriodStart: now,
              currentPeriodEnd: periodEnd,
              provider: "demo",
              ...savedCard,
              createdAt: now,
            },
            "checkout_paid",
          );
          const invoice = await repo.upsertInvoice({
            userId: checkout.userId,
            subscriptionId: subscription.id,
            checkoutId: checkout.id,
            idempotencyKey: `checkout:${checkout.id}`,
            plan,
            description: invoiceDescription(plan, now, periodEnd),
            amountCents: checkout.amountCents,
            status: "open",
            periodStart: now,
            periodEnd,
            cardBrand: saved.brand,
            cardLast4: saved.last4,
            issuedAt: now,
          });
          if (!(await attemptCharge(repo, invoice, saved.token, `checkout:${checkout.id}:attempt:1`, now))) {
            throw declined();
          }
        }
        await repo.markCheckoutPaid(checkout.id, now, subscription.id);
        return answer;
      });
    },

    async isSubscribed(auth: AuthContext, userId: string): Promise<boolean> {
      const id = assertSelf(auth, userId);
      return (await this.entitlement(id)).member;
    },

    async getSubscription(auth: AuthContext, userId: string): Promise<Subscription | null> {
      const id = assertSelf(auth, userId);
      const row = await createMembershipRepository(db).findLatestSubscription(id);
      return row ? toSubscription(row) : null;
    },

    /** Cancel at the period's end (access stays until then); a past-due membership ends at once. */
    async cancel(auth: AuthContext, userId: string): Promise<Subscription> {
      const id = assertSelf(auth, userId);
      return db.transaction(async (tx) => {
        const repo = createMembershipRepository(tx);
        const sub = await requireLive(repo, id);
        const now = clock.now();
        if (sub.status === "canceled") return toSubscription(sub);
        if (sub.status === "past_due") {
          if (stripe && sub.providerSubscriptionId) {
            const providerId = sub.providerSubscriptionId;
            await callProvider(() => stripe.cancelNow(providerId));
          }
          return toSubscription(
            await repo.changeStatus(sub, "ended", "canceled_by_patient", now, {
              canceledAt: now,
              endedAt: now,
              retryAt: null,
            }),
          );
        }
        if (stripe && sub.providerSubscriptionId) {
          const providerId = sub.providerSubscriptionId;
          await callProvider(() => stripe.setCancelAtPeriodEnd(providerId, true));
        }
        return toSubscription(
          await repo.changeStatus(sub, "canceled", "canceled_by_patient", now, {
            cancelAtPeriodEnd: true,
            canceledAt: now,
          }),
        );
      });
    },

    /** Undo a cancel before the period ends: back to the trial if it was one, else active. */
    async resume(auth: AuthContext, userId: string): Promise<Subscription> {
      const id = assertSelf(auth, userId);
      return db.transaction(async (tx) => {
        const repo = createMembershipRepository(tx);
        const sub = await repo.findLiveSubscription(id, true);
        const now = clock.now();
        if (!sub || sub.status === "past_due" || (sub.status === "canceled" && sub.currentPeriodEnd <= now)) {
          throw new AppError("CANNOT_RESUME", 409, MEMBERSHIP_ERRORS.cannotResume);
        }
        if (sub.status !== "canceled") return toSubscription(sub);
        if (stripe && sub.providerSubscriptionId) {
          const providerId = sub.providerSubscriptionId;
          await callProvider(() => stripe.setCancelAtPeriodEnd(providerId, false));
        }
        const inTrial = sub.trialEndsAt !== null && now < sub.trialEndsAt;
        return toSubscription(
          await repo.changeStatus(sub, inTrial ? "trialing" : "active", "resumed_by_patient", now, {
            cancelAtPeriodEnd: false,
            canceledAt: null,
          }),
        );
      });
    },

    /** The interval from the next renewal on; asking for the current one drops a pending change. */
    async changeInterval(
      auth: AuthContext,
      userId: string,
      interval: BillingInterval,
    ): Promise<Subscription> {
      const id = assertSelf(auth, userId);
      return db.transaction(async (tx) => {
        const repo = createMembershipRepository(tx);
        const sub = await requireLive(repo, id);
        if (sub.status !== "trialing" && sub.status !== "active") {
          throw new AppError("CANNOT_CHANGE_INTERVAL", 409, MEMBERSHIP_ERRORS.cannotChangeInterval);
        }
        const pendingInterval = interval === sub.interval ? null : interval;
        if (pendingInterval === sub.pendingInterval) return toSubscription(sub);
        if (stripe && sub.providerSubscriptionId && pendingInterval) {
          const providerId = sub.providerSubscriptionId;
          await callProvider(() =>
            stripe.changePriceAtRenewal(
              providerId,
              sub.plan as PlanKey,
              PLAN_FOR_INTERVAL[pendingInterval],
              sub.currentPeriodStart,
              sub.currentPeriodEnd,
            ),
          );
        }
        return toSubscription(await repo.updateSubscription(sub.id, { pendingInterval }, clock.now()));
      });
    },

    async feedback(auth: AuthContext, input: CancelFeedbackRequest): Promise<Subscription> {
      const userId = assertSelf(auth, input.user_id);
      const repo = createMembershipRepository(db);
      const sub = await repo.findSubscription(input.subscription_id.toLowerCase());
      if (!sub) throw new AppError("SUBSCRIPTION_NOT_FOUND", 404, MEMBERSHIP_ERRORS.subscriptionNotFound);
      if (sub.userId !== userId) throw ownAccountOnly(sub.userId, sub.id);
      await repo.insertFeedback({
        subscriptionId: sub.id,
        reason: input.reason,
        comment: input.comment === undefined || input.comment === "" ? null : input.comment,
        createdAt: clock.now(),
      });
      return toSubscription(sub);
    },

    async listInvoices(auth: AuthContext): Promise<Invoice[]> {
      if (auth.isServiceAccount) throw ownAccountOnly();
      return (await createMembershipRepository(db).listInvoices(auth.userId)).map(toInvoice);
    },

    async getInvoice(auth: AuthContext, id: string): Promise<Invoice> {
      const row = await createMembershipRepository(db).findInvoice(id.toLowerCase());
      if (!row) throw new AppError("INVOICE_NOT_FOUND", 404, MEMBERSHIP_ERRORS.invoiceNotFound);
      if (auth.isServiceAccount || row.userId !== auth.userId) throw ownAccountOnly(row.userId, row.id);
      return toInvoice(row);
    },

    /** Whether a patient may have a consultation: a membership's access, or unused one-time visits. */
    async entitlement(userId: string, executor: Executor = db): Promise<Entitlement> {
      const repo = createMembershipRepository(executor);
      const sub = await repo.findLiveSubscription(userId);
      const now = clock.now();
      return {
        member: sub ? givesAccess(sub.status as SubscriptionStatus, sub.currentPeriodEnd, now) : false,
        visitCredits: await repo.countVisitCredits(userId),
      };
    },

    /**
     * Spends one one-time visit of this type inside the caller's transaction (the consultation that
     * uses it rolls back with it). False when none is left; two concurrent calls never spend one twice.
     */
    async consumeVisitCredit(tx: Executor, userId: string, type: "chat" | "video"): Promise<boolean> {
      return (
        (await createMembershipRepository(tx).consumeVisitCredit(userId, type, clock.now())) !== undefined
      );
    },

    /** Gives a spent one-time visit back inside the caller's transaction (a canceled request). */
    async returnVisitCredit(tx: Executor, userId: string, type: "chat" | "video"): Promise<void> {
      await createMembershipRepository(tx).returnVisitCredit(userId, type);
    },

    /** Renewals, retries and endings that are due; each membership in its own transaction. */
    async runDue(): Promise<number> {
      const now = clock.now();
      const ids = await createMembershipRepository(db).dueSubscriptionIds(now);
      for (const id of ids) {
        try {
          await db.transaction((tx) => settle(tx, id, now));
        } catch (error) {
          deps.log.error({ err: error, subscriptionId: id }, "membership renewal failed");
        }
      }
      return ids.length;
    },

    /**
     * Applies one verified Stripe webhook event. The event id is recorded in the same transaction,
     * so a replay changes nothing, and a failure leaves it to Stripe's retry. An event about a
     * subscription not known yet (events may arrive out of order) is refused with 409 so that Stripe
     * sends it again later.
     */
    async applyStripeEvent(event: StripeEvent): Promise<"applied" | "duplicate" | "ignored"> {
      return db.transaction(async (tx) => {
        const repo = createMembershipRepository(tx);
        const now = clock.now();
        if (!(await repo.markWebhookProcessed(event.id, event.type, now))) return "duplicate";
        const object = event.data.object;
        switch (event.type) {
          case "checkout.session.completed":
            return (await stripeCheckoutCompleted(repo, object, now)) ? "applied" : "ignored";
          case "invoice.paid":
          case "invoice.payment_failed":
            await stripeInvoice(repo, object, event.type === "invoice.paid", now);
            return "applied";
          case "customer.subscription.updated":
          case "customer.subscription.deleted":
            await stripeSubscriptionChanged(repo, object, event.type.endsWith("deleted"), now);
            return "applied";
          default:
            return "ignored";
        }
      });
    },

    /** The membership's status history (oldest first). */
    async history(subscriptionId: string) {
      return createMembershipRepository(db).listHistory(subscriptionId);
    },
  };
}

export type MembershipService = ReturnType<typeof createMembershipService>;
