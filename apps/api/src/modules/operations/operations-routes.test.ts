import { randomUUID } from "node:crypto";
import { loginResponse } from "@ambercare/contracts/auth";
import { auditLogResponse } from "@ambercare/contracts/consultation";
import { invoiceResponse, invoicesResponse } from "@ambercare/contracts/membership";
import {
  accessLogResponse,
  operatorActionsResponse,
  operatorProfileResponse,
  operatorVisitDetailResponse,
  refundResponse,
  teamMemberResponse,
  teamResponse,
  visitSearchResponse,
} from "@ambercare/contracts/operations";
import { ROLE_ERRORS } from "@ambercare/contracts/roles";
import { pendingLoginResponse, secondFactorSetupResponse } from "@ambercare/contracts/second-factor";
import {
  auditLog,
  clinicians,
  invoiceRefunds,
  invoices,
  providerLicenses,
  providers,
  users,
} from "@ambercare/db/schema";
import { eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCareTeamCommand } from "#api/cli/care-team.ts";
import { totpCodeAt } from "#api/modules/accounts/second-factor-codes.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  consultationBody,
  createTestApp,
  offerEveryVisitType,
  parseMail,
  registerClinician,
  registerPatient,
  resetTokenIn,
  serviceToken,
  startSmtpServer,
  type TestApp,
} from "#api/test-support.ts";

const AUTH = "/api/v1/api/auth";
const OPS = "/api/v1/api/operations";
const STATE = "TX";
const clock = createManualClock(new Date("2026-03-02T09:00:00Z"));
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
let address = 1;
/** The operator's session, with the second factor on. */
let operator: { token: string; userId: string; email: string };

const post = (url: string, token: string | undefined, payload: object = {}) =>
  t.app.inject({
    method: "POST",
    url,
    headers: token === undefined ? {} : bearer(token),
    remoteAddress: `203.0.113.${address++ % 250}`,
    payload,
  });
const get = (url: string, token: string) =>
  t.app.inject({ method: "GET", url, headers: bearer(token), remoteAddress: "203.0.113.7" });

async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCareTeamCommand(argv, {
    careTeam: t.app.careTeam,
    operations: t.app.operations,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

async function mailTo(email: string) {
  await t.app.mailer.drain();
  const mail = smtp.received.filter((message) => message.to.includes(email)).at(-1);
  if (!mail) throw new Error(`no e-mail to ${email}`);
  return parseMail(mail.raw);
}

/** An operator created with the command, a password set with the e-mailed link, logged in. */
async function createdOperator(email: string) {
  const created = await cli(["operator", "--email", email, "--locale", "bg"]);
  expect(created).toMatchObject({ code: 0, err: "" });
  expect(created.out).toContain(`Created the operator ${email}`);
  const mail = await mailTo(email);
  expect(mail.headers.get("subject")).toBe("Вашият операторски профил в Ambercare");
  const password = "harbor-lantern-quietly-58";
  const reset = await post("/auth/ambercare/reset-password", await serviceToken(t.app), {
    token: resetTokenIn(mail),
    password,
  });
  expect(reset.statusCode, reset.body).toBe(200);
  const login = await post(`${AUTH}/login`, undefined, { email, password });
  expect(login.statusCode, login.body).toBe(200);
  return { session: loginResponse.parse(login.json()), password };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    clock,
    env: {
      RATE_LIMIT_MAX: "100000",
      SMTP_URL: smtp.url,
      WEB_URL: "http://web.test",
      SESSION_IDLE_MINUTES: "300",
    },
  });
  // One provider licensed in STATE offers every visit type and has a clinician: requests find it.
  const [licensed] = await t.db.db
    .select({ id: providers.id })
    .from(providers)
    .innerJoin(providerLicenses, eq(providerLicenses.providerId, providers.id))
    .leftJoin(clinicians, eq(clinicians.providerId, providers.id))
    .where(sql`${providerLicenses.state} = ${STATE} and ${isNull(clinicians.userId)}`)
    .limit(1);
  await offerEveryVisitType(t.db.db, licensed!.id);
  const owner = await registerPatient(t.app);
  await t.db.db.update(users).set({ role: "clinician" }).where(eq(users.id, owner.user_id));
  await t.db.db.insert(clinicians).values({ userId: owner.user_id, providerId: licensed!.id });

  const email = `operator-${randomUUID().slice(0, 8)}@example.org`;
  const { session, password } = await createdOperator(email);
  // Without the second factor the console is closed: the operator is sent to set it up.
  const closed = await get(`${OPS}/me`, session.access_token);
  expect(closed.statusCode).toBe(403);
  expect(closed.json()).toEqual({
    error: ROLE_ERRORS.operatorSecondFactorSetupRequired,
    code: "SECOND_FACTOR_SETUP_REQUIRED",
  });
  const setup = secondFactorSetupResponse.parse(
    (await post(`${AUTH}/second-factor/setup`, session.access_token)).json(),
  ).data;
  const confirmed = await post(`${AUTH}/second-factor/confirm`, session.access_token, {
    code: totpCodeAt(setup.secret, clock.now()),
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  clock.advance(30_000);
  // From now on a login takes two steps.
  const first = await post(`${AUTH}/login`, undefined, { email, password });
  const pending = pendingLoginResponse.parse(first.json());
  const second = await post(`${AUTH}/login/second-factor`, undefined, {
    pending_login_token: pending.pending_login_token,
    code: totpCodeAt(setup.secret, clock.now()),
  });
  expect(second.statusCode, second.body).toBe(200);
  operator = { token: loginResponse.parse(second.json()).access_token, userId: session.user_id, email };
}, 120_000);

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const card = {
  card_number: "4242 4242 4242 4242",
  exp_month: "12",
  exp_year: "2040",
  cvc: "123",
  name: "Pat",
};

/** A patient who bought a one-time chat visit and requested it; answers the visit id. */
async function paidVisit() {
  const patient = await registerPatient(t.app, { locale: "en" });
  const order = await post("/ambercare/visit-checkout", patient.access_token, {
    user_id: patient.user_id,
    plan: "ppv_chat",
  });
  expect(order.statusCode, order.body).toBe(200);
  const checkoutId = String(order.json().data.checkout_url).split("/").pop();
  const paid = await post(`/ambercare/checkout/${checkoutId}/pay`, patient.access_token, card);
  expect(paid.statusCode, paid.body).toBe(200);
  const created = await post(
    "/ambercare/create-consultation",
    patient.access_token,
    consultationBody("chat", STATE),
  );
  expect(created.statusCode, created.body).toBe(201);
  return { patient, visitId: created.json().data.id as string };
}

async function lastActions(n: number) {
  const res = await get(`${OPS}/actions`, operator.token);
  expect(res.statusCode, res.body).toBe(200);
  return operatorActionsResponse.parse(res.json()).data.slice(0, n);
}

describe("the operator role", () => {
  it("opens the console to an operator with the second factor, by name", async () => {
    const res = await get(`${OPS}/me`, operator.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(operatorProfileResponse.parse(res.json()).data).toMatchObject({
      user_id: operator.userId,
      email: operator.email,
    });
  });

  it("refuses patients and clinicians with 403 OPERATOR_ONLY on every call", async () => {
    const patient = await registerPatient(t.app);
    const clinician = await registerClinician(t, clock.now());
    const id = randomUUID();
    const calls = [
      ["GET", `${OPS}/me`],
      ["GET", `${OPS}/team`],
      ["POST", `${OPS}/team/invite`],
      ["POST", `${OPS}/team/${id}/disable`],
      ["POST", `${OPS}/team/${id}/enable`],
      ["POST", `${OPS}/team/${id}/end-sessions`],
      ["GET", `${OPS}/actions`],
      ["GET", `${OPS}/visits`],
      ["GET", `${OPS}/visits/${id}`],
      ["POST", `${OPS}/visits/${id}/refund`],
      ["GET", `${OPS}/access-log`],
      ["GET", `${OPS}/access-log.csv`],
    ] as const;
    for (const token of [patient.access_token, clinician.access_token]) {
      for (const [method, url] of calls) {
        const res = await t.app.inject({
          method,
          url,
          headers: bearer(token),
          payload: method === "POST" ? {} : undefined,
        });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json(), url).toEqual({ error: ROLE_ERRORS.operatorOnly, code: "OPERATOR_ONLY" });
      }
    }
    const anonymous = await t.app.inject({ method: "GET", url: `${OPS}/team` });
    expect(anonymous.statusCode).toBe(401);
  });

  it("keeps an operator out of the patients' calls and the care console", async () => {
    const profile = await get("/api/v1/api/care-team/me", operator.token);
    expect(profile.json()).toEqual({ error: ROLE_ERRORS.clinicianOnly, code: "CLINICIAN_ONLY" });
    const invoicesOf = await get("/ambercare/invoices", operator.token);
    expect(invoicesOf.statusCode).toBe(403);
    expect(invoicesOf.json()).toMatchObject({ code: "PATIENT_ONLY" });
  });

  it("does not give a patient's address to an operator", async () => {
    const patient = await registerPatient(t.app);
    expect(await cli(["operator", "--email", patient.email])).toMatchObject({ code: 1 });
  });
});

describe("the team", () => {
  it("invites a clinician, disables, re-enables and ends their sessions, each audited with who and from where", async () => {
    const [free] = await t.db.db
      .select({ slug: providers.slug })
      .from(providers)
      .leftJoin(clinicians, eq(clinicians.providerId, providers.id))
      .where(isNull(clinicians.userId))
      .orderBy(providers.slug)
      .limit(1);
    const email = `clinician-${randomUUID().slice(0, 8)}@example.org`;
    const invited = await post(`${OPS}/team/invite`, operator.token, { email, provider_slug: free!.slug });
    expect(invited.statusCode, invited.body).toBe(200);
    const userId = invited.json().data.user_id as string;
    expect((await mailTo(email)).headers.get("subject")).toBe("Your Ambercare care team account");
    const [inviteAction] = await lastActions(1);
    expect(inviteAction).toMatchObject({
      actor_user_id: operator.userId,
      actor_email: operator.email,
      action: "clinician.invite",
      target_id: userId,
      detail: { email, provider: free!.slug, outcome: "invited" },
      at: clock.now().toISOString(),
    });
    expect(inviteAction!.ip).toMatch(/^203\.0\.113\./);

    // The invited clinician sets a password, logs in and goes on duty.
    const password = "orchard-lantern-quietly-11";
    const reset = await post("/auth/ambercare/reset-password", await serviceToken(t.app), {
      token: resetTokenIn(await mailTo(email)),
      password,
    });
    expect(reset.statusCode).toBe(200);
    const login = loginResponse.parse((await post(`${AUTH}/login`, undefined, { email, password })).json());
    await t.db.db.update(clinicians).set({ onDutySince: clock.now() }).where(eq(clinicians.userId, userId));
    const team = teamResponse.parse((await get(`${OPS}/team`, operator.token)).json()).data;
    expect(team.find((member) => member.user_id === userId)).toMatchObject({
      email,
      provider_slug: free!.slug,
      second_factor: false,
      disabled_at: null,
      on_duty_since: clock.now().toISOString(),
      sessions: 1,
    });

    clock.advance(1000);
    const ended = await post(`${OPS}/team/${userId}/end-sessions`, operator.token);
    expect(teamMemberResponse.parse(ended.json()).data).toEqual({
      user_id: userId,
      disabled: false,
      sessions_ended: 1,
    });
    expect((await get(`${AUTH}/me`, login.access_token)).statusCode).toBe(401);

    const again = loginResponse.parse((await post(`${AUTH}/login`, undefined, { email, password })).json());
    clock.advance(1000);
    const disabled = await post(`${OPS}/team/${userId}/disable`, operator.token);
    expect(teamMemberResponse.parse(disabled.json()).data).toEqual({
      user_id: userId,
      disabled: true,
      sessions_ended: 1,
    });
    expect((await get(`${AUTH}/me`, again.access_token)).statusCode).toBe(401);
    expect((await post(`${AUTH}/login`, undefined, { email, password })).statusCode).toBe(401);
    const offDuty = teamResponse.parse((await get(`${OPS}/team`, operator.token)).json()).data;
    expect(offDuty.find((member) => member.user_id === userId)).toMatchObject({
      on_duty_since: null,
      sessions: 0,
    });

    clock.advance(1000);
    const enabled = await post(`${OPS}/team/${userId}/enable`, operator.token);
    expect(teamMemberResponse.parse(enabled.json()).data).toMatchObject({ disabled: false });
    expect((await post(`${AUTH}/login`, undefined, { email, password })).statusCode).toBe(200);

    expect((await lastActions(3)).map((row) => [row.action, row.target_id, row.actor_user_id])).toEqual([
      ["clinician.enable", userId, operator.userId],
      ["clinician.disable", userId, operator.userId],
      ["clinician.end_sessions", userId, operator.userId],
    ]);
  });

  it("refuses an unknown provider, a provider already linked and an unknown clinician with codes", async () => {
    const unknown = await post(`${OPS}/team/invite`, operator.token, {
      email: "someone@example.org",
      provider_slug: "nobody-at-all",
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: "PROVIDER_NOT_FOUND" });
    const clinician = await registerClinician(t, clock.now());
    const [linked] = await t.db.db
      .select({ slug: providers.slug })
      .from(providers)
      .where(eq(providers.id, clinician.providerId));
    const taken = await post(`${OPS}/team/invite`, operator.token, {
      email: "another@example.org",
      provider_slug: linked!.slug,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: "PROVIDER_ALREADY_LINKED" });
    const missing = await post(`${OPS}/team/${randomUUID()}/disable`, operator.token);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: "CLINICIAN_NOT_FOUND" });
    const bad = await post(`${OPS}/team/not-a-uuid/disable`, operator.token);
    expect(bad.statusCode).toBe(400);
  });
});

describe("visits and refunds", () => {
  it("finds a visit by the patient's e-mail and shows its timeline and payments, never its intake", async () => {
    const { patient, visitId } = await paidVisit();
    const found = await get(
      `${OPS}/visits?email=${encodeURIComponent(patient.email)}&status=requested`,
      operator.token,
    );
    expect(found.statusCode, found.body).toBe(200);
    expect(visitSearchResponse.parse(found.json()).data.map((visit) => visit.id)).toEqual([visitId]);
    const none = await get(
      `${OPS}/visits?email=${encodeURIComponent(patient.email)}&status=completed`,
      operator.token,
    );
    expect(visitSearchResponse.parse(none.json()).data).toEqual([]);

    const detail = await get(`${OPS}/visits/${visitId}`, operator.token);
    expect(detail.statusCode, detail.body).toBe(200);
    const body = operatorVisitDetailResponse.parse(detail.json()).data;
    expect(body.timeline.map((event) => [event.kind, event.detail])).toEqual([["status", "requested"]]);
    expect(body.payments).toHaveLength(1);
    expect(detail.body).not.toContain("Cough");

    // The patient's own access log names the clinic's staff.
    const log = auditLogResponse.parse((await get("/ambercare/audit-log", patient.access_token)).json()).data;
    expect(log.find((row) => row.action === "consultation.timeline_read")).toMatchObject({
      actor: "operator",
      resource_id: visitId,
    });
  });

  it("refunds part of a payment once under a double submit, never above what was paid, and tells the patient", async () => {
    const { patient, visitId } = await paidVisit();
    const detail = operatorVisitDetailResponse.parse(
      (await get(`${OPS}/visits/${visitId}`, operator.token)).json(),
    );
    const payment = detail.data.payments[0]!;

    const above = await post(`${OPS}/visits/${visitId}/refund`, operator.token, {
      invoice_id: payment.invoice_id,
      amount_cents: payment.amount_cents + 1,
      reason: "Goodwill",
    });
    expect(above.statusCode).toBe(400);
    expect(above.json()).toMatchObject({ code: "REFUND_ABOVE_PAID" });
    const noReason = await post(`${OPS}/visits/${visitId}/refund`, operator.token, {
      invoice_id: payment.invoice_id,
    });
    expect(noReason.statusCode).toBe(400);
    const otherInvoice = await post(`${OPS}/visits/${visitId}/refund`, operator.token, {
      invoice_id: randomUUID(),
      reason: "Goodwill",
    });
    expect(otherInvoice.statusCode).toBe(404);
    expect(otherInvoice.json()).toMatchObject({ code: "PAYMENT_NOT_FOUND" });

    const part = Math.floor(payment.amount_cents / 2);
    const submit = () =>
      post(`${OPS}/visits/${visitId}/refund`, operator.token, {
        invoice_id: payment.invoice_id,
        amount_cents: part,
        reason: "The call dropped twice",
      });
    const [one, two] = await Promise.all([submit(), submit()]);
    expect([one.statusCode, two.statusCode]).toEqual([200, 200]);
    expect(refundResponse.parse(one.json()).data).toEqual(refundResponse.parse(two.json()).data);
    expect(refundResponse.parse(one.json()).data).toMatchObject({
      refunded_amount_cents: part,
      refund_reason: "The call dropped twice",
    });
    // A later, larger refund of the same payment gives nothing more back.
    const later = await post(`${OPS}/visits/${visitId}/refund`, operator.token, {
      invoice_id: payment.invoice_id,
      reason: "Once more",
    });
    expect(refundResponse.parse(later.json()).data.refunded_amount_cents).toBe(part);

    const [stored] = await t.db.db.select().from(invoices).where(eq(invoices.id, payment.invoice_id));
    expect(stored).toMatchObject({ refundedAmountCents: part, refundReason: "The call dropped twice" });
    expect(stored!.providerRefundId).toMatch(/^demo_re_/);

    const billing = invoicesResponse.parse(
      (await get("/ambercare/invoices", patient.access_token)).json(),
    ).data;
    expect(billing[0]).toMatchObject({ refunded_amount_cents: part });
    await t.app.mailer.drain();
    const refundMails = smtp.received
      .filter((mail) => mail.to.includes(patient.email))
      .map((mail) => parseMail(mail.raw))
      .filter((mail) => mail.headers.get("subject") === "A refund of your Ambercare visit");
    expect(refundMails).toHaveLength(1);
    expect(refundMails[0]!.text).toContain(`$${(part / 100).toFixed(2)}`);
    expect(refundMails[0]!.text).toContain("The call dropped twice");

    const refunds = (await lastActions(20)).filter(
      (row) => row.action === "payment.refund" && row.target_id === payment.invoice_id,
    );
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ actor_user_id: operator.userId, detail: { amount_cents: part } });
    const timeline = operatorVisitDetailResponse.parse(
      (await get(`${OPS}/visits/${visitId}`, operator.token)).json(),
    ).data.timeline;
    expect(timeline.at(-1)).toMatchObject({ kind: "refund", actor: "operator" });
  });

  it("refunds a payment several times, each once under a double submit, never adding up above what was paid", async () => {
    const { patient, visitId } = await paidVisit();
    const payment = operatorVisitDetailResponse.parse(
      (await get(`${OPS}/visits/${visitId}`, operator.token)).json(),
    ).data.payments[0]!;
    const paid = payment.amount_cents;
    const refund = (key: string, amountCents: number, reason: string) =>
      post(`${OPS}/visits/${visitId}/refund`, operator.token, {
        invoice_id: payment.invoice_id,
        amount_cents: amountCents,
        reason,
        idempotency_key: key,
      });

    // A first part, submitted twice: one refund.
    const first = randomUUID();
    const quarter = Math.floor(paid / 4);
    const [one, two] = await Promise.all([
      refund(first, quarter, "First part back"),
      refund(first, quarter, "First part back"),
    ]);
    expect([one.statusCode, two.statusCode]).toEqual([200, 200]);
    expect(refundResponse.parse(two.json()).data.refunded_amount_cents).toBe(quarter);

    // Two other parts at once, whose sum with the first is above what was paid: one is refused.
    const rest = paid - quarter;
    const [a, b] = await Promise.all([
      refund(randomUUID(), rest - 1, "Second part back"),
      refund(randomUUID(), 2, "Third part back"),
    ]);
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses).toEqual([200, 409]);
    const refused = a.statusCode === 409 ? a : b;
    expect(refused.json()).toMatchObject({ code: "REFUND_ABOVE_PAID" });
    const accepted = refundResponse.parse((a.statusCode === 200 ? a : b).json()).data;
    const secondAmount = a.statusCode === 200 ? rest - 1 : 2;
    expect(accepted.refunded_amount_cents).toBe(quarter + secondAmount);

    // What is left, asked for without an amount, and then nothing more.
    const last = await post(`${OPS}/visits/${visitId}/refund`, operator.token, {
      invoice_id: payment.invoice_id,
      reason: "The rest back",
      idempotency_key: randomUUID(),
    });
    expect(last.statusCode, last.body).toBe(200);
    expect(refundResponse.parse(last.json()).data.refunded_amount_cents).toBe(paid);
    const more = await refund(randomUUID(), 1, "Too much");
    expect(more.statusCode).toBe(409);
    expect(more.json()).toMatchObject({ code: "REFUND_ABOVE_PAID" });

    const stored = await t.db.db
      .select()
      .from(invoiceRefunds)
      .where(eq(invoiceRefunds.invoiceId, payment.invoice_id));
    expect(stored.map((row) => row.amountCents).sort((x, y) => x - y)).toEqual(
      [quarter, secondAmount, paid - quarter - secondAmount].sort((x, y) => x - y),
    );
    expect(new Set(stored.map((row) => row.providerRefundId)).size).toBe(3);
    const billing = invoicesResponse.parse(
      (await get("/ambercare/invoices", patient.access_token)).json(),
    ).data;
    expect(billing[0]).toMatchObject({ refunded_amount_cents: paid });
    // The billing history lists each refund, oldest first (then by id: the test's clock stands still),
    // as stored, not only their sum.
    const byTime = [...stored].sort(
      (x, y) => x.createdAt.getTime() - y.createdAt.getTime() || (x.id < y.id ? -1 : 1),
    );
    expect(billing[0]!.refunds).toEqual(
      byTime.map((row) => ({ at: row.createdAt.toISOString(), amount_cents: row.amountCents })),
    );
    expect(billing[0]!.refunds.reduce((sum, line) => sum + line.amount_cents, 0)).toBe(paid);
    const receipt = invoiceResponse.parse(
      (await get(`/ambercare/invoices/${payment.invoice_id}`, patient.access_token)).json(),
    ).data;
    expect(receipt.refunds).toEqual(billing[0]!.refunds);
    await t.app.mailer.drain();
    const mailed = smtp.received
      .filter((mail) => mail.to.includes(patient.email))
      .map((mail) => parseMail(mail.raw))
      .filter((mail) => mail.headers.get("subject") === "A refund of your Ambercare visit");
    expect(mailed).toHaveLength(3);
    expect(mailed[0]!.text).toContain(`$${(quarter / 100).toFixed(2)}`);
    const logged = (await lastActions(50)).filter(
      (row) => row.action === "payment.refund" && row.target_id === payment.invoice_id,
    );
    expect(logged).toHaveLength(3);
  });
});

describe("a visit's refunds in its timeline", () => {
  const refundsOf = async (visitId: string) =>
    operatorVisitDetailResponse
      .parse((await get(`${OPS}/visits/${visitId}`, operator.token)).json())
      .data.timeline.filter((event) => event.kind === "refund");

  it("shows each refund of a payment refunded in parts on its own, at its time, with its amount", async () => {
    const { visitId } = await paidVisit();
    const payment = operatorVisitDetailResponse.parse(
      (await get(`${OPS}/visits/${visitId}`, operator.token)).json(),
    ).data.payments[0]!;
    const times: string[] = [];
    for (const [cents, reason] of [
      [500, "First part back"],
      [250, "Second part back"],
      [125, "Third part back"],
    ] as const) {
      clock.advance(60 * 60 * 1000);
      times.push(clock.now().toISOString());
      const made = await post(`${OPS}/visits/${visitId}/refund`, operator.token, {
        invoice_id: payment.invoice_id,
        amount_cents: cents,
        reason,
        idempotency_key: randomUUID(),
      });
      expect(made.statusCode, made.body).toBe(200);
    }
    expect(await refundsOf(visitId)).toEqual([
      { at: times[0], kind: "refund", detail: "$5.00", actor: "operator" },
      { at: times[1], kind: "refund", detail: "$2.50", actor: "operator" },
      { at: times[2], kind: "refund", detail: "$1.25", actor: "operator" },
    ]);
  });

  it("shows an automatic refund, which has no row of its own, once from the invoice", async () => {
    const { visitId } = await paidVisit();
    const payment = operatorVisitDetailResponse.parse(
      (await get(`${OPS}/visits/${visitId}`, operator.token)).json(),
    ).data.payments[0]!;
    clock.advance(20 * 60 * 1000);
    // As the expiry writes it: the whole payment back, on the invoice, without a reason.
    await t.db.db
      .update(invoices)
      .set({ refundedAt: clock.now(), refundedAmountCents: payment.amount_cents })
      .where(eq(invoices.id, payment.invoice_id));
    expect(await refundsOf(visitId)).toEqual([
      {
        at: clock.now().toISOString(),
        kind: "refund",
        detail: `$${(payment.amount_cents / 100).toFixed(2)}`,
        actor: "system",
      },
    ]);
  });
});

describe("the access log", () => {
  it("finds a patient's entries by patient, actor, action and day, exports them as CSV, and logs both", async () => {
    const { patient, visitId } = await paidVisit();
    // The operator opens the visit: a row in the patient's access log, with the operator as actor.
    expect((await get(`${OPS}/visits/${visitId}`, operator.token)).statusCode).toBe(200);
    const day = clock.now().toISOString().slice(0, 10);
    const query = new URLSearchParams({
      patient: patient.email,
      actor: operator.email,
      action: "consultation.timeline_read",
      from: day,
      to: day,
    });
    const found = await get(`${OPS}/access-log?${query}`, operator.token);
    expect(found.statusCode, found.body).toBe(200);
    const rows = accessLogResponse.parse(found.json()).data;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      patient_email: patient.email,
      actor_email: operator.email,
      actor_kind: "operator",
      action: "consultation.timeline_read",
      resource_id: visitId,
      count: 1,
    });
    // The patient's own reads are theirs: filtered by action they are not this operator's.
    const own = accessLogResponse.parse(
      (
        await get(
          `${OPS}/access-log?${new URLSearchParams({ patient: patient.email, actor: patient.email })}`,
          operator.token,
        )
      ).json(),
    ).data;
    expect(own.every((row) => row.actor_email === patient.email)).toBe(true);
    const yesterday = new Date(clock.now().getTime() - 86_400_000).toISOString().slice(0, 10);
    const before = accessLogResponse.parse(
      (
        await get(
          `${OPS}/access-log?${new URLSearchParams({ patient: patient.email, to: yesterday })}`,
          operator.token,
        )
      ).json(),
    );
    expect(before.meta.total).toBe(0);

    clock.advance(1000);
    const csv = await get(`${OPS}/access-log.csv?${query}`, operator.token);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toBe('attachment; filename="access-log.csv"');
    const lines = csv.body.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "id,at,patient_email,actor_email,actor_kind,action,resource_type,resource_id,ip,count",
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(
      `${patient.email},${operator.email},operator,consultation.timeline_read,consultation,${visitId}`,
    );
    expect(lines[1]).toMatch(/,1$/);

    const [exported, ...earlier] = await lastActions(20);
    expect(exported).toMatchObject({
      action: "access_log.export",
      detail: { patient: patient.email, rows: 1 },
    });
    const searches = earlier.filter(
      (row) => row.action === "access_log.search" && row.detail.patient === patient.email,
    );
    expect(searches.map((row) => row.actor_user_id)).toEqual([
      operator.userId,
      operator.userId,
      operator.userId,
    ]);

    const bad = await get(`${OPS}/access-log?action=nothing.at_all`, operator.token);
    expect(bad.statusCode).toBe(400);
  });

  it("exports the count of a burst of refused attempts, as the page shows it", async () => {
    const patient = await registerPatient(t.app);
    const clinician = await registerClinician(t, clock.now());
    await t.db.db.insert(auditLog).values({
      userId: patient.user_id,
      actorUserId: clinician.user_id,
      actorKind: "clinician",
      action: "access.refused",
      resourceType: "consultation",
      at: clock.now(),
      count: 7,
    });
    const query = new URLSearchParams({ patient: patient.email, action: "access.refused" });
    const csv = await get(`${OPS}/access-log.csv?${query}`, operator.token);
    expect(csv.statusCode, csv.body).toBe(200);
    const lines = csv.body.trimEnd().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`${patient.email},${clinician.email},clinician,access.refused,consultation,,`);
    expect(lines[1]).toMatch(/,7$/);
  });
});
