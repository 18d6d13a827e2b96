import type { Checkout, PayCheckoutRequest } from "@ambercare/contracts/membership";
import {
  type BillingInterval,
  CHECKOUT_TTL_HOURS,
  type CheckoutKind,
  DEFAULT_RETURN_PATHS,
  MEMBERSHIP_ERRORS,
  PLAN_FOR_INTERVAL,
  TRIAL_DAYS,
  type VisitPlanKey,
} from "@ambercare/contracts/membership-constants";
import { PLANS, type PlanKey } from "@ambercare/contracts/plans";
import { visitTypeOfPlan } from "@ambercare/contracts/visit-types";
import type { AuthContext } from "#api/modules/accounts/session-service.ts";
import { attemptCharge, callProvider } from "#api/modules/membership/charge-service.ts";
import { notifying, paymentReceived, sendAfterCommit } from "#api/modules/membership/membership-mail.ts";
import {
  assertSelf,
  invoiceDescription,
  type MembershipDeps,
  ownAccountOnly,
  patientInvoiceDescription,
} from "#api/modules/membership/membership-records.ts";
import {
  type CheckoutRow,
  createMembershipRepository,
  type InvoiceRow,
  type MembershipRepository,
  type SubscriptionRow,
} from "#api/modules/membership/membership-repository.ts";
import { addInterval, DAY_MS } from "#api/platform/billing-calendar.ts";
import { AppError } from "#api/platform/errors.ts";

/**
 * Checkouts of a membership or a one-time visit: started here, paid on the processor's page or, with
 * the demo processor, on Ambercare's own (payCheckout). Checkouts are rows of their own, valid 24 h,
 * owner only.
 */
/** A paid one-time visit: one credit for a consultation of its type, and the checkout paid. */
export async function grantVisit(
  repo: MembershipRepository,
  checkout: CheckoutRow,
  now: Date,
): Promise<void> {
  const type = visitTypeOfPlan(checkout.plan);
  // A visit checkout is only ever started for a one-time plan (startVisitCheckout).
  if (!type) throw new Error(`Checkout ${checkout.id} is for ${checkout.plan}, which buys no visit`);
  await repo.insertVisitCredit({
    userId: checkout.userId,
    type,
    checkoutId: checkout.id,
    createdAt: now,
  });
  await repo.markCheckoutPaid(checkout.id, now, null);
}

export function createCheckoutService(deps: MembershipDeps) {
  const { db, clock, payments } = deps;
  const webOrigin = new URL(deps.webUrl).origin;

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

  /** The checkout's one charge; a declined card answers 402 and the transaction takes it all back. */
  async function chargeAtCheckout(
    repo: MembershipRepository,
    invoice: InvoiceRow,
    token: string,
    checkoutId: string,
    now: Date,
  ): Promise<void> {
    if (!(await attemptCharge(payments, repo, invoice, token, `checkout:${checkoutId}:attempt:1`, now))) {
      throw new AppError("CARD_DECLINED", 402, MEMBERSHIP_ERRORS.cardDeclined);
    }
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
      provider: payments.name,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CHECKOUT_TTL_HOURS * 3600_000),
    });
    const email = (await repo.findUserEmail(input.userId)) ?? "";
    const session = await callProvider(deps.log, () =>
      payments.startCheckout({
        checkoutId: checkout.id,
        plan: input.plan,
        mode: input.kind === "subscription" ? "subscription" : "payment",
        trialDays: input.trialDays,
        customerEmail: email,
        successUrl: `${deps.webUrl}${path}`,
        cancelUrl: `${deps.webUrl}${input.kind === "subscription" ? "/pricing-options" : "/one-time-visit"}`,
      }),
    );
    if (session.sessionId) await repo.setCheckoutSession(checkout.id, session.sessionId);
    return { checkout_url: session.url };
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
        kind: row.kind,
        plan: row.plan,
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
      if (!payments.takesCardDetails) {
        throw new AppError("DEMO_PAYMENTS_ONLY", 409, MEMBERSHIP_ERRORS.demoPaymentsOnly);
      }
      return sendAfterCommit(deps, (notices) =>
        db.transaction(async (tx) => {
          const repo = notifying(createMembershipRepository(tx), notices);
          const checkout = await ownCheckout(repo, auth, id, true);
          const now = clock.now();
          const answer = { status: "paid" as const, return_url: checkout.returnPath };
          if (checkout.paidAt) return answer;
          if (now >= checkout.expiresAt)
            throw new AppError("CHECKOUT_EXPIRED", 410, MEMBERSHIP_ERRORS.checkoutExpired);
          const check = payments.checkCard(card, now);
          if (!check.ok) throw new AppError(check.code, check.status, check.message);
          const saved = check.card;
          const plan = checkout.plan;

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
            await chargeAtCheckout(repo, invoice, saved.token, checkout.id, now);
            await grantVisit(repo, checkout, now);
            notices.push(await paymentReceived(repo, invoice.id));
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
                plan: PLAN_FOR_INTERVAL[interval],
                interval,
                status: "trialing",
                trialEndsAt: trialEnd,
                currentPeriodStart: now,
                currentPeriodEnd: trialEnd,
                provider: payments.name,
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
                plan: PLAN_FOR_INTERVAL[interval],
                interval,
                status: "active",
                currentPeriodStart: now,
                currentPeriodEnd: periodEnd,
                provider: payments.name,
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
              description: await patientInvoiceDescription(repo, deps.timeZone, checkout.userId, plan, {
                start: now,
                end: periodEnd,
              }),
              amountCents: checkout.amountCents,
              status: "open",
              periodStart: now,
              periodEnd,
              cardBrand: saved.brand,
              cardLast4: saved.last4,
              issuedAt: now,
            });
            await chargeAtCheckout(repo, invoice, saved.token, checkout.id, now);
            notices.push(await paymentReceived(repo, invoice.id));
          }
          await repo.markCheckoutPaid(checkout.id, now, subscription.id);
          return answer;
        }),
      );
    },
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
