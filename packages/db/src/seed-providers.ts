import { US_STATE_CODES } from "@ambercare/contracts/us-states";
import { VISIT_TYPE_IDS, type VisitType } from "@ambercare/contracts/visit-types";
import { inArray, sql } from "drizzle-orm";
import type { DbHandle, Executor } from "./client.ts";
import {
  conditions,
  operatorActions,
  providerConditions,
  providerLicenses,
  providerSpecializations,
  providers,
  specializations,
} from "./schema.ts";
import { SEED_CONDITIONS, SEED_SPECIALIZATIONS } from "./seed-data.ts";

/**
 * Fictional providers, generated from a seeded PRNG: the same `seed` and index always give the same
 * provider, so the demo seed is reproducible and idempotent, and `npm run seed -- --providers N`
 * makes a directory of any size for benchmarks. Names are drawn at random from common given names
 * and surnames; no real person is described.
 */

export const DEMO_PROVIDER_COUNT = 300;
export const DEFAULT_PROVIDER_SEED = 1;

/** mulberry32: small, fast and good enough for test data; never used for anything secret. */
export function createPrng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type NamePool = { language: string | null; first: readonly string[]; last: readonly string[] };

/** Name pools; a provider from a pool with a language speaks it beside English. */
const NAME_POOLS: readonly NamePool[] = [
  {
    language: null,
    first: [
      "Emily",
      "Michael",
      "Sarah",
      "David",
      "Jessica",
      "James",
      "Laura",
      "Daniel",
      "Rachel",
      "Andrew",
      "Megan",
      "Christopher",
      "Hannah",
      "Matthew",
      "Olivia",
      "Benjamin",
      "Grace",
      "Samuel",
      "Claire",
      "Nathan",
      "Abigail",
      "Thomas",
      "Natalie",
      "Ryan",
      "Caroline",
      "Jonathan",
      "Lauren",
      "Eric",
      "Alison",
      "Patrick",
      "Julia",
      "Kevin",
      "Rebecca",
      "Brian",
      "Allison",
      "Aaron",
      "Victoria",
      "Marcus",
      "Danielle",
      "Simone",
      "Jamal",
      "Tiana",
      "Adebayo",
      "Aisha",
      "Omar",
      "Leila",
    ],
    last: [
      "Anderson",
      "Bennett",
      "Carter",
      "Donovan",
      "Ellis",
      "Fletcher",
      "Gallagher",
      "Harper",
      "Ingram",
      "Jennings",
      "Keller",
      "Lawson",
      "Mitchell",
      "Norris",
      "O'Connell",
      "Porter",
      "Quinn",
      "Reynolds",
      "Sullivan",
      "Thornton",
      "Underwood",
      "Vaughn",
      "Whitaker",
      "Young",
      "Brooks",
      "Coleman",
      "Franklin",
      "Hayes",
      "Jefferson",
      "Murphy",
      "Robinson",
      "Washington",
      "Okafor",
      "Adeyemi",
      "Haddad",
      "Rahman",
      "Kowalski",
      "Novak",
      "Schmidt",
      "Larsen",
      "Patel",
      "Shah",
      "Kapoor",
    ],
  },
  {
    language: "es",
    first: [
      "Sofía",
      "Alejandro",
      "Isabel",
      "Carlos",
      "Lucía",
      "Javier",
      "Mariana",
      "Diego",
      "Elena",
      "Mateo",
    ],
    last: [
      "García",
      "Martínez",
      "Rodríguez",
      "Hernández",
      "López",
      "Ramírez",
      "Flores",
      "Torres",
      "Morales",
      "Vargas",
    ],
  },
  {
    language: "bg",
    first: [
      "Maria",
      "Georgi",
      "Elena",
      "Ivan",
      "Desislava",
      "Nikolay",
      "Teodora",
      "Dimitar",
      "Kalina",
      "Stefan",
    ],
    last: [
      "Petrova",
      "Ivanov",
      "Georgieva",
      "Dimitrov",
      "Nikolova",
      "Stoyanov",
      "Todorova",
      "Angelov",
      "Koleva",
      "Marinov",
    ],
  },
  {
    language: "zh",
    first: ["Wei", "Mei", "Jun", "Lin", "Hao", "Xiu", "Yan", "Chen", "Ling", "Bo"],
    last: ["Chen", "Wang", "Li", "Zhang", "Liu", "Huang", "Zhou", "Wu", "Xu", "Sun"],
  },
  {
    language: "vi",
    first: ["Linh", "Minh", "Thao", "Anh", "Huong", "Quang", "Lan", "Duc", "Trang", "Bao"],
    last: ["Nguyen", "Tran", "Le", "Pham", "Hoang", "Vu", "Dang", "Bui", "Do", "Ngo"],
  },
  {
    language: "ko",
    first: ["Ji-woo", "Min-jun", "Seo-yeon", "Hyun", "Soo-ah", "Jae"],
    last: ["Kim", "Lee", "Park", "Choi", "Jung", "Kang"],
  },
];
/** How often each pool is drawn (sums to 1): most names come from the first. */
const POOL_WEIGHTS = [0.6, 0.16, 0.06, 0.08, 0.06, 0.04];
/** Other languages a provider may also speak. */
const EXTRA_LANGUAGES = ["es", "fr", "ru", "ar", "tl", "pt", "hi"];

const CREDENTIALS = ["MD", "MD", "MD", "DO", "NP", "NP", "PA"] as const;

const SPECIALTY_PHRASES: Record<string, { en: string; bg: string }> = {};
for (const s of SEED_SPECIALIZATIONS) {
  SPECIALTY_PHRASES[s.slug] = { en: s.nameEn.toLowerCase(), bg: s.nameBg.toLowerCase() };
}

const FOCUS_EN = [
  "takes time to explain each option in plain language",
  "believes good care starts with listening",
  "helps patients make practical plans they can keep",
  "has a special interest in preventive care",
  "cares for patients of every age and background",
  "focuses on clear next steps after every visit",
];
const FOCUS_BG = [
  "отделя време да обясни всяка възможност на разбираем език",
  "вярва, че добрата грижа започва с изслушването",
  "помага на пациентите да изготвят практични планове, които да спазват",
  "проявява специален интерес към профилактиката",
  "грижи се за пациенти от всички възрасти",
  "завършва всеки преглед с ясни следващи стъпки",
];

export type GeneratedProvider = {
  slug: string;
  firstName: string;
  lastName: string;
  credentials: (typeof CREDENTIALS)[number];
  photoPath: string | null;
  bioEn: string;
  bioBg: string;
  languages: string[];
  /** The kinds of visit offered, in the list's order (packages/contracts/src/visit-types.ts). */
  visitTypes: VisitType[];
  availableToday: boolean;
  specializationSlugs: string[];
  conditionSlugs: string[];
  states: string[];
};

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

/** `count` distinct items, in the order of `items`. */
function sample<T>(random: () => number, items: readonly T[], count: number): T[] {
  const chosen = new Set<number>();
  while (chosen.size < Math.min(count, items.length)) chosen.add(Math.floor(random() * items.length));
  return [...chosen].sort((a, b) => a - b).map((i) => items[i] as T);
}

function slugify(text: string): string {
  return text
    .normalize("NFD")
    .replaceAll(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replaceAll(/[^a-z0-9]+/g, "-")
    .replaceAll(/^-|-$/g, "");
}

/**
 * Provider number `index` (0-based) of the directory generated from `seed`. Each provider has its
 * own PRNG stream, so provider 7 is the same whether 300 or 100 000 are generated. The first
 * provider of each block of specializations is assigned round-robin, so every specialization has
 * providers, and 50 consecutive providers cover every state.
 */
export function generateProvider(seed: number, index: number): GeneratedProvider {
  const random = createPrng(Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b));
  let roll = random();
  let poolIndex = 0;
  while (poolIndex < POOL_WEIGHTS.length - 1 && roll >= (POOL_WEIGHTS[poolIndex] ?? 0)) {
    roll -= POOL_WEIGHTS[poolIndex] ?? 0;
    poolIndex++;
  }
  const pool = NAME_POOLS[poolIndex] as NamePool;
  const firstName = pick(random, pool.first);
  const lastName = pick(random, pool.last);
  const credentials = pick(random, CREDENTIALS);

  const specializationCount = SEED_SPECIALIZATIONS.length;
  const primary = SEED_SPECIALIZATIONS[index % specializationCount]!;
  const specs = [primary];
  if (random() < 0.35) {
    const second = pick(random, SEED_SPECIALIZATIONS);
    if (second.slug !== primary.slug) specs.push(second);
  }
  const conditionSlugs: string[] = [];
  for (const spec of specs) {
    const own = SEED_CONDITIONS.filter((c) => c.specializationSlug === spec.slug);
    const n = Math.max(2, Math.ceil(own.length * (0.5 + random() * 0.5)));
    conditionSlugs.push(...sample(random, own, n).map((c) => c.slug));
  }

  const home = US_STATE_CODES[index % US_STATE_CODES.length]!;
  const stateCount = 1 + Math.floor(random() * random() * 5);
  const states = new Set<string>([home]);
  while (states.size < stateCount) states.add(pick(random, US_STATE_CODES));

  const languages = ["en"];
  if (pool.language !== null && random() < 0.85) languages.push(pool.language);
  if (random() < 0.15) {
    const extra = pick(random, EXTRA_LANGUAGES);
    if (!languages.includes(extra)) languages.push(extra);
  }

  // Most providers offer every kind of visit, the others one kind.
  const visitTypes = random() < 0.7 ? [...VISIT_TYPE_IDS] : [pick(random, VISIT_TYPE_IDS)];
  const years = 3 + Math.floor(random() * 28);
  const focus = Math.floor(random() * FOCUS_EN.length);
  const title = credentials === "MD" || credentials === "DO" ? "Dr. " : "";
  const titleBg = credentials === "MD" || credentials === "DO" ? "Д-р " : "";
  const role = {
    MD: { en: "a physician", bg: "лекар" },
    DO: { en: "an osteopathic physician", bg: "лекар остеопат" },
    NP: { en: "a nurse practitioner", bg: "медицинска сестра с право на практика" },
    PA: { en: "a physician assistant", bg: "асистент на лекар" },
  }[credentials];
  const specsEn = specs.map((s) => SPECIALTY_PHRASES[s.slug]!.en).join(" and ");
  const specsBg = specs.map((s) => SPECIALTY_PHRASES[s.slug]!.bg).join(" и ");

  return {
    slug: `${slugify(`${firstName} ${lastName}`)}-${index + 1}`,
    firstName,
    lastName,
    credentials,
    photoPath: null,
    bioEn: `${title}${firstName} ${lastName} is ${role.en} in ${specsEn} with ${years} years of experience, and ${FOCUS_EN[focus]}.`,
    bioBg: `${titleBg}${firstName} ${lastName} е ${role.bg} в областта „${specsBg}“ с ${years} години опит и ${FOCUS_BG[focus]}.`,
    languages,
    visitTypes,
    availableToday: random() < 0.4,
    specializationSlugs: specs.map((s) => s.slug),
    conditionSlugs,
    states: [...states].sort(),
  };
}

export type SeedProvidersOptions = {
  count?: number;
  seed?: number;
  /** Providers per transaction (and per multi-row INSERT). */
  batchSize?: number;
  /** Called after each batch with the number of providers done so far. */
  onProgress?: (done: number) => void;
};

/**
 * Upserts providers 0…count-1 of `seed` by slug, with their specializations, conditions and
 * licences, one transaction per batch. A provider is rewritten only when its content differs, and
 * its rating aggregate is never touched, so a second run writes nothing and real ratings survive.
 * A provider an operator created or edited in the directory editor (any `provider.*` entry of the
 * operations log naming it, ADR 065) is the clinic's from then on: the seed leaves it and its
 * specializations, conditions and licences exactly as the operator left them.
 * Returns the number of provider rows inserted or changed. The catalogue must be seeded first.
 */
export async function seedProviders(
  handle: Pick<DbHandle, "db">,
  options: SeedProvidersOptions = {},
): Promise<number> {
  const { count = DEMO_PROVIDER_COUNT, seed = DEFAULT_PROVIDER_SEED, batchSize = 1000 } = options;
  let written = 0;
  for (let start = 0; start < count; start += batchSize) {
    const batch: GeneratedProvider[] = [];
    for (let i = start; i < Math.min(count, start + batchSize); i++) batch.push(generateProvider(seed, i));
    written += await handle.db.transaction((tx) => upsertProviders(tx, batch));
    options.onProgress?.(Math.min(count, start + batchSize));
  }
  return written;
}

/** The operations log's entries of an operator's change to the provider whose id (text) is `id`. */
const operatorEdits = (id: ReturnType<typeof sql>) =>
  sql`select 1 from ${operatorActions} a where a.target_type = 'provider' and a.action like 'provider.%' and a.target_id = ${id}`;

/** One batch of seedProviders, inside the caller's transaction. */
export async function upsertProviders(
  tx: Executor,
  generated: readonly GeneratedProvider[],
): Promise<number> {
  if (generated.length === 0) return 0;
  let batch = generated;
  const written = await tx
    .insert(providers)
    .values(
      batch.map((p) => ({
        slug: p.slug,
        firstName: p.firstName,
        lastName: p.lastName,
        credentials: p.credentials,
        photoPath: p.photoPath,
        bioEn: p.bioEn,
        translations: { bg: { bio: p.bioBg } },
        languages: p.languages,
        visitTypes: p.visitTypes,
        availableToday: p.availableToday,
      })),
    )
    .onConflictDoUpdate({
      target: providers.slug,
      set: {
        firstName: sql`excluded.first_name`,
        lastName: sql`excluded.last_name`,
        credentials: sql`excluded.credentials`,
        photoPath: sql`excluded.photo_path`,
        bioEn: sql`excluded.bio_en`,
        translations: sql`excluded.translations`,
        languages: sql`excluded.languages`,
        visitTypes: sql`excluded.visit_types`,
        availableToday: sql`excluded.available_today`,
      },
      setWhere: sql`not exists (${operatorEdits(sql`${providers.id}::text`)}) and (${providers.firstName}, ${providers.lastName}, ${providers.credentials}, ${providers.photoPath}, ${providers.bioEn}, ${providers.translations}, ${providers.languages}, ${providers.visitTypes}, ${providers.availableToday})
        is distinct from (excluded.first_name, excluded.last_name, excluded.credentials, excluded.photo_path, excluded.bio_en, excluded.translations, excluded.languages, excluded.visit_types, excluded.available_today)`,
    })
    .returning({ id: providers.id });

  const idRows = await tx
    .select({ id: providers.id, slug: providers.slug })
    .from(providers)
    .where(
      inArray(
        providers.slug,
        batch.map((p) => p.slug),
      ),
    );
  const editedRows =
    idRows.length === 0
      ? []
      : await tx
          .selectDistinct({ id: operatorActions.targetId })
          .from(operatorActions)
          .where(
            sql`${operatorActions.targetType} = 'provider' and ${operatorActions.action} like 'provider.%' and ${inArray(
              operatorActions.targetId,
              idRows.map((row) => row.id),
            )}`,
          );
  const edited = new Set(editedRows.map((row) => row.id));
  // The operator's providers keep the links they were given: none is added back.
  const providerId = new Map(idRows.filter((row) => !edited.has(row.id)).map((row) => [row.slug, row.id]));
  batch = batch.filter((p) => providerId.has(p.slug));
  if (batch.length === 0) return written.length;
  const specRows = await tx
    .select({ id: specializations.id, slug: specializations.slug })
    .from(specializations);
  const specId = new Map(specRows.map((row) => [row.slug, row.id]));
  const condRows = await tx.select({ id: conditions.id, slug: conditions.slug }).from(conditions);
  const condId = new Map(condRows.map((row) => [row.slug, row.id]));
  const lookup = (map: Map<string, number>, slug: string, what: string) => {
    const id = map.get(slug);
    if (id === undefined)
      throw new Error(`seedProviders: unknown ${what} "${slug}" (seed the catalogue first)`);
    return id;
  };

  const specLinks = batch.flatMap((p) =>
    p.specializationSlugs.map((slug) => ({
      providerId: providerId.get(p.slug)!,
      specializationId: lookup(specId, slug, "specialization"),
    })),
  );
  const condLinks = batch.flatMap((p) =>
    p.conditionSlugs.map((slug) => ({
      providerId: providerId.get(p.slug)!,
      conditionId: lookup(condId, slug, "condition"),
    })),
  );
  const licenses = batch.flatMap((p) =>
    p.states.map((state) => ({ providerId: providerId.get(p.slug)!, state })),
  );
  await tx.insert(providerSpecializations).values(specLinks).onConflictDoNothing();
  await tx.insert(providerConditions).values(condLinks).onConflictDoNothing();
  await tx.insert(providerLicenses).values(licenses).onConflictDoNothing();
  return written.length;
}
