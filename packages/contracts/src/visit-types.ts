/**
 * The kinds of visit Ambercare offers, one row each: every place that differs by kind (the plan
 * that buys one, the provider's flag in the directory's answers, the credits a patient holds, the
 * database's checks, the pages' choices) reads this list, so a new kind is a row here and its
 * strings in the locale files (docs/decisions/056-visit-types-as-data.md). No dependency: pages
 * import it without pulling zod into the browser.
 */
export type VisitTypeRow = Readonly<{
  /** Stored in consultations.type, visit_credits.type and providers.visit_types; the API's `type`. */
  id: string;
  /**
   * The one-time plan that buys one visit of this kind (spec §3 names ppv_chat and ppv_video). A
   * paid one is a credit of the kind's `id` (visit_credits.type, the entitlement's
   * `visit_credits.<id>`).
   */
  planKey: `ppv_${string}`;
  /** The one-time plan's price in cents (spec §9: ppv_chat 29, ppv_video 49; ADR 004: USD). */
  priceCents: number;
  /** The default length of a booked slot of this kind, in minutes (booking reads it; ADR 056). */
  slotMinutes: number;
  /**
   * Held on a video call: the call screen is shown and starting the call starts the visit. Without
   * one, the clinician starts the visit from the workspace and it is held in the visit's chat.
   */
  videoCall: boolean;
}>;

const ROWS = [
  { id: "chat", planKey: "ppv_chat", priceCents: 2900, slotMinutes: 15, videoCall: false },
  { id: "video", planKey: "ppv_video", priceCents: 4900, slotMinutes: 20, videoCall: true },
] as const satisfies readonly VisitTypeRow[];

/**
 * The helpers every caller uses, built from a list of rows: exported below for Ambercare's list,
 * and callable with another list so a test can show that a new row flows through each of them.
 */
export function defineVisitTypes<const R extends readonly [VisitTypeRow, ...VisitTypeRow[]]>(rows: R) {
  type Row = R[number];
  type Id = Row["id"];
  type PlanKey = Row["planKey"];
  const frozen = Object.freeze(rows.map((row) => Object.freeze({ ...row }))) as unknown as R;
  const ids = Object.freeze(rows.map((row) => row.id)) as readonly Id[] as readonly [Id, ...Id[]];
  const planKeys = Object.freeze(rows.map((row) => row.planKey)) as readonly PlanKey[] as readonly [
    PlanKey,
    ...PlanKey[],
  ];
  const byId = new Map<string, Row>(frozen.map((row) => [row.id, row]));
  const byPlan = new Map<string, Row>(frozen.map((row) => [row.planKey, row]));
  const offersField = <T extends Id>(id: T): `offers_${T}` => `offers_${id}`;

  return {
    rows: frozen,
    ids,
    planKeys,

    /** A value for each kind, as a record the compiler holds complete (no kind without its value). */
    perVisitType<T>(value: (row: Row) => T): Readonly<Record<Id, T>> {
      return Object.freeze(Object.fromEntries(frozen.map((row) => [row.id, value(row)]))) as Record<Id, T>;
    },

    /** A value for each one-time plan, keyed by plan (ppv_chat, ppv_video). */
    perVisitPlan<T>(value: (row: Row) => T): Readonly<Record<PlanKey, T>> {
      const entries = frozen.map((row) => [row.planKey, value(row)]);
      return Object.freeze(Object.fromEntries(entries)) as Record<PlanKey, T>;
    },

    isVisitType(value: unknown): value is Id {
      return typeof value === "string" && byId.has(value);
    },

    isVisitPlanKey(value: unknown): value is PlanKey {
      return typeof value === "string" && byPlan.has(value);
    },

    /** The row of a kind. */
    visitTypeRow(id: Id): Row {
      const row = byId.get(id);
      if (!row) throw new Error(`Unknown visit type: ${String(id)}`);
      return row;
    },

    /** The kind a one-time plan buys; null for any other plan (a membership). */
    visitTypeOfPlan(plan: string): Id | null {
      return byPlan.get(plan)?.id ?? null;
    },

    /** The directory's flag of a kind in the API's answers: `offers_chat`, `offers_video`. */
    offersField,

    /** A provider's flags from the kinds they offer: one per kind of the list, true or false. */
    offersOf(offered: readonly string[]): Record<`offers_${Id}`, boolean> {
      const entries = ids.map((id) => [offersField(id), offered.includes(id)]);
      return Object.fromEntries(entries) as Record<`offers_${Id}`, boolean>;
    },

    /** The kinds a provider offers, read back from its flags, in the list's order. */
    offeredBy(provider: Readonly<Record<`offers_${Id}`, boolean>>): Id[] {
      return ids.filter((id) => provider[offersField(id)] === true);
    },
  };
}

const defined = defineVisitTypes(ROWS);

export const VISIT_TYPES = defined.rows;
export type VisitType = (typeof VISIT_TYPES)[number]["id"];
/** The one-time plans, one per kind, in the list's order. */
export type VisitPlanKey = (typeof VISIT_TYPES)[number]["planKey"];
/** `offers_chat`, `offers_video`: a provider's flag per kind in the directory's answers. */
export type OffersField = `offers_${VisitType}`;

/** The kinds' ids in the list's order (the order pages show them in). */
export const VISIT_TYPE_IDS = defined.ids;
export const VISIT_PLAN_KEYS = defined.planKeys;
export const {
  perVisitType,
  perVisitPlan,
  isVisitType,
  isVisitPlanKey,
  visitTypeRow,
  visitTypeOfPlan,
  offersField,
  offersOf,
  offeredBy,
} = defined;

/**
 * The kind the consult page selects when nothing else decides (no kind asked for, no single paid
 * visit), if the provider offers it.
 */
export const PREFERRED_VISIT_TYPE: VisitType = "video";

/** How many visits of each kind: none yet. */
export const NO_VISIT_CREDITS: Readonly<Record<VisitType, number>> = perVisitType(() => 0);
