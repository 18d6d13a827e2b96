import { DEMO_CLINICIAN, DEMO_PATIENT } from "@ambercare/contracts/demo";

/**
 * Catalogue content of a primary-care and urgent-care telehealth service: the specializations it
 * offers and the conditions it sees, in English and Bulgarian. Conditions named in the intake form's
 * symptom list (Acid Reflux, Allergies, Asthma, Cold & Flu, Covid-19, Fever, Headache, Migraines,
 * Pink Eye, Rash, Sore Throat, Sprains and Strains) are all here. Slugs are stable identifiers:
 * change a name freely, never a slug.
 */

export type SeedSpecialization = {
  slug: string;
  nameEn: string;
  nameBg: string;
  descriptionEn: string;
  descriptionBg: string;
  sortOrder: number;
};

export type SeedCondition = {
  slug: string;
  nameEn: string;
  nameBg: string;
  specializationSlug: string;
};

export const SEED_SPECIALIZATIONS: readonly SeedSpecialization[] = [
  {
    slug: "primary-care",
    nameEn: "Primary Care",
    nameBg: "Обща медицина",
    descriptionEn:
      "Everyday health concerns, follow-up visits, prescription refills and advice on what to do next.",
    descriptionBg:
      "Ежедневни здравословни проблеми, контролни прегледи, подновяване на рецепти и съвет какво да направите по-нататък.",
    sortOrder: 10,
  },
  {
    slug: "urgent-care",
    nameEn: "Urgent Care",
    nameBg: "Неотложна помощ",
    descriptionEn: "Same-day care for sudden illnesses and minor injuries that are not life-threatening.",
    descriptionBg:
      "Грижа в същия ден при внезапни заболявания и леки наранявания, които не са животозастрашаващи.",
    sortOrder: 20,
  },
  {
    slug: "dermatology",
    nameEn: "Dermatology",
    nameBg: "Дерматология",
    descriptionEn: "Skin, hair and nail conditions, from rashes and acne to eczema and psoriasis.",
    descriptionBg: "Заболявания на кожата, косата и ноктите – от обриви и акне до екзема и псориазис.",
    sortOrder: 30,
  },
  {
    slug: "mental-health",
    nameEn: "Mental Health & Psychiatry",
    nameBg: "Психично здраве и психиатрия",
    descriptionEn:
      "Support for anxiety, depression, stress and sleep problems, including medication management.",
    descriptionBg:
      "Подкрепа при тревожност, депресия, стрес и проблеми със съня, включително медикаментозно лечение.",
    sortOrder: 40,
  },
  {
    slug: "pediatrics",
    nameEn: "Pediatrics",
    nameBg: "Педиатрия",
    descriptionEn: "Care for infants, children and teenagers, with practical advice for parents.",
    descriptionBg: "Грижа за бебета, деца и юноши и практични съвети за родителите.",
    sortOrder: 50,
  },
  {
    slug: "womens-health",
    nameEn: "Women's Health",
    nameBg: "Женско здраве",
    descriptionEn: "Contraception, urinary tract infections, vaginal infections and menopause symptoms.",
    descriptionBg:
      "Контрацепция, инфекции на пикочните пътища, вагинални инфекции и симптоми на менопаузата.",
    sortOrder: 60,
  },
  {
    slug: "mens-health",
    nameEn: "Men's Health",
    nameBg: "Мъжко здраве",
    descriptionEn: "Erectile dysfunction, hair loss, prostate concerns and preventive care for men.",
    descriptionBg: "Еректилна дисфункция, косопад, проблеми с простатата и профилактика при мъжете.",
    sortOrder: 70,
  },
  {
    slug: "allergy-immunology",
    nameEn: "Allergy & Immunology",
    nameBg: "Алергология и имунология",
    descriptionEn: "Seasonal and food allergies, hives and allergic asthma.",
    descriptionBg: "Сезонни и хранителни алергии, уртикария и алергична астма.",
    sortOrder: 80,
  },
  {
    slug: "infectious-disease",
    nameEn: "Infectious Disease",
    nameBg: "Инфекциозни болести",
    descriptionEn: "COVID-19, shingles, cold sores and sexually transmitted infections.",
    descriptionBg: "COVID-19, херпес зостер, херпес по устните и полово предавани инфекции.",
    sortOrder: 90,
  },
  {
    slug: "endocrinology",
    nameEn: "Endocrinology",
    nameBg: "Ендокринология",
    descriptionEn: "Diabetes, thyroid disorders and weight management.",
    descriptionBg: "Диабет, заболявания на щитовидната жлеза и контрол на теглото.",
    sortOrder: 100,
  },
  {
    slug: "cardiology",
    nameEn: "Cardiology",
    nameBg: "Кардиология",
    descriptionEn: "High blood pressure, high cholesterol, palpitations and heart-health follow-up.",
    descriptionBg:
      "Високо кръвно налягане, висок холестерол, сърцебиене и проследяване на сърдечно-съдовото здраве.",
    sortOrder: 110,
  },
  {
    slug: "gastroenterology",
    nameEn: "Gastroenterology",
    nameBg: "Гастроентерология",
    descriptionEn: "Acid reflux, nausea, diarrhea, constipation and irritable bowel syndrome.",
    descriptionBg: "Киселинен рефлукс, гадене, диария, запек и синдром на раздразненото черво.",
    sortOrder: 120,
  },
];

export const SEED_CONDITIONS: readonly SeedCondition[] = [
  // Primary Care
  { slug: "headache", nameEn: "Headache", nameBg: "Главоболие", specializationSlug: "primary-care" },
  { slug: "migraines", nameEn: "Migraines", nameBg: "Мигрена", specializationSlug: "primary-care" },
  { slug: "fever", nameEn: "Fever", nameBg: "Повишена температура", specializationSlug: "primary-care" },
  { slug: "back-pain", nameEn: "Back Pain", nameBg: "Болки в гърба", specializationSlug: "primary-care" },
  // Urgent Care
  {
    slug: "cold-and-flu",
    nameEn: "Cold & Flu",
    nameBg: "Настинка и грип",
    specializationSlug: "urgent-care",
  },
  {
    slug: "sore-throat",
    nameEn: "Sore Throat",
    nameBg: "Болки в гърлото",
    specializationSlug: "urgent-care",
  },
  {
    slug: "sinus-infection",
    nameEn: "Sinus Infection",
    nameBg: "Синузит",
    specializationSlug: "urgent-care",
  },
  { slug: "bronchitis", nameEn: "Bronchitis", nameBg: "Бронхит", specializationSlug: "urgent-care" },
  { slug: "pink-eye", nameEn: "Pink Eye", nameBg: "Конюнктивит", specializationSlug: "urgent-care" },
  {
    slug: "sprains-and-strains",
    nameEn: "Sprains and Strains",
    nameBg: "Навяхвания и разтежения",
    specializationSlug: "urgent-care",
  },
  { slug: "minor-burns", nameEn: "Minor Burns", nameBg: "Леки изгаряния", specializationSlug: "urgent-care" },
  // Dermatology
  { slug: "acne", nameEn: "Acne", nameBg: "Акне", specializationSlug: "dermatology" },
  { slug: "eczema", nameEn: "Eczema", nameBg: "Екзема", specializationSlug: "dermatology" },
  { slug: "rash", nameEn: "Rash", nameBg: "Обрив", specializationSlug: "dermatology" },
  { slug: "psoriasis", nameEn: "Psoriasis", nameBg: "Псориазис", specializationSlug: "dermatology" },
  { slug: "rosacea", nameEn: "Rosacea", nameBg: "Розацея", specializationSlug: "dermatology" },
  // Mental Health & Psychiatry
  { slug: "anxiety", nameEn: "Anxiety", nameBg: "Тревожност", specializationSlug: "mental-health" },
  { slug: "depression", nameEn: "Depression", nameBg: "Депресия", specializationSlug: "mental-health" },
  { slug: "insomnia", nameEn: "Insomnia", nameBg: "Безсъние", specializationSlug: "mental-health" },
  {
    slug: "adhd",
    nameEn: "ADHD",
    nameBg: "Синдром на дефицит на вниманието и хиперактивност (СДВХ)",
    specializationSlug: "mental-health",
  },
  // Pediatrics
  {
    slug: "ear-infection",
    nameEn: "Ear Infection",
    nameBg: "Ушна инфекция",
    specializationSlug: "pediatrics",
  },
  { slug: "diaper-rash", nameEn: "Diaper Rash", nameBg: "Пелен дерматит", specializationSlug: "pediatrics" },
  { slug: "head-lice", nameEn: "Head Lice", nameBg: "Въшки", specializationSlug: "pediatrics" },
  {
    slug: "hand-foot-and-mouth-disease",
    nameEn: "Hand, Foot and Mouth Disease",
    nameBg: "Болест ръка-крак-уста",
    specializationSlug: "pediatrics",
  },
  // Women's Health
  {
    slug: "urinary-tract-infection",
    nameEn: "Urinary Tract Infection (UTI)",
    nameBg: "Инфекция на пикочните пътища",
    specializationSlug: "womens-health",
  },
  {
    slug: "yeast-infection",
    nameEn: "Vaginal Yeast Infection",
    nameBg: "Вагинална гъбична инфекция",
    specializationSlug: "womens-health",
  },
  {
    slug: "birth-control",
    nameEn: "Birth Control",
    nameBg: "Контрацепция",
    specializationSlug: "womens-health",
  },
  {
    slug: "menopause-symptoms",
    nameEn: "Menopause Symptoms",
    nameBg: "Симптоми на менопаузата",
    specializationSlug: "womens-health",
  },
  // Men's Health
  {
    slug: "erectile-dysfunction",
    nameEn: "Erectile Dysfunction",
    nameBg: "Еректилна дисфункция",
    specializationSlug: "mens-health",
  },
  { slug: "hair-loss", nameEn: "Hair Loss", nameBg: "Косопад", specializationSlug: "mens-health" },
  {
    slug: "enlarged-prostate",
    nameEn: "Enlarged Prostate (BPH)",
    nameBg: "Доброкачествено уголемяване на простатата",
    specializationSlug: "mens-health",
  },
  // Allergy & Immunology
  {
    slug: "seasonal-allergies",
    nameEn: "Seasonal Allergies",
    nameBg: "Сезонни алергии",
    specializationSlug: "allergy-immunology",
  },
  { slug: "asthma", nameEn: "Asthma", nameBg: "Астма", specializationSlug: "allergy-immunology" },
  { slug: "hives", nameEn: "Hives", nameBg: "Уртикария", specializationSlug: "allergy-immunology" },
  {
    slug: "food-allergies",
    nameEn: "Food Allergies",
    nameBg: "Хранителни алергии",
    specializationSlug: "allergy-immunology",
  },
  // Infectious Disease
  { slug: "covid-19", nameEn: "COVID-19", nameBg: "COVID-19", specializationSlug: "infectious-disease" },
  { slug: "shingles", nameEn: "Shingles", nameBg: "Херпес зостер", specializationSlug: "infectious-disease" },
  {
    slug: "cold-sores",
    nameEn: "Cold Sores",
    nameBg: "Херпес по устните",
    specializationSlug: "infectious-disease",
  },
  {
    slug: "sexually-transmitted-infections",
    nameEn: "Sexually Transmitted Infections (STIs)",
    nameBg: "Полово предавани инфекции",
    specializationSlug: "infectious-disease",
  },
  // Endocrinology
  {
    slug: "type-2-diabetes",
    nameEn: "Type 2 Diabetes",
    nameBg: "Диабет тип 2",
    specializationSlug: "endocrinology",
  },
  {
    slug: "hypothyroidism",
    nameEn: "Hypothyroidism",
    nameBg: "Хипотиреоидизъм",
    specializationSlug: "endocrinology",
  },
  {
    slug: "weight-management",
    nameEn: "Weight Management",
    nameBg: "Контрол на теглото",
    specializationSlug: "endocrinology",
  },
  // Cardiology
  {
    slug: "high-blood-pressure",
    nameEn: "High Blood Pressure",
    nameBg: "Високо кръвно налягане",
    specializationSlug: "cardiology",
  },
  {
    slug: "high-cholesterol",
    nameEn: "High Cholesterol",
    nameBg: "Висок холестерол",
    specializationSlug: "cardiology",
  },
  {
    slug: "palpitations",
    nameEn: "Heart Palpitations",
    nameBg: "Сърцебиене",
    specializationSlug: "cardiology",
  },
  // Gastroenterology
  {
    slug: "acid-reflux",
    nameEn: "Acid Reflux",
    nameBg: "Киселинен рефлукс",
    specializationSlug: "gastroenterology",
  },
  {
    slug: "nausea-and-vomiting",
    nameEn: "Nausea and Vomiting",
    nameBg: "Гадене и повръщане",
    specializationSlug: "gastroenterology",
  },
  { slug: "diarrhea", nameEn: "Diarrhea", nameBg: "Диария", specializationSlug: "gastroenterology" },
  { slug: "constipation", nameEn: "Constipation", nameBg: "Запек", specializationSlug: "gastroenterology" },
  {
    slug: "irritable-bowel-syndrome",
    nameEn: "Irritable Bowel Syndrome (IBS)",
    nameBg: "Синдром на раздразненото черво",
    specializationSlug: "gastroenterology",
  },
];

/**
 * The demo patient (credentials in packages/contracts/src/demo.ts, quoted by the README), with a
 * complete profile so every page behind login works at once. The password is stored as this
 * argon2id hash (OWASP parameters: m=19456 KiB, t=2, p=1), computed once from DEMO_PATIENT.password:
 * the seed then needs no hashing library, and the API's test "the demo patient can log in" proves the
 * two still match.
 */
export const SEED_DEMO_PATIENT = {
  email: DEMO_PATIENT.email,
  passwordHash:
    "$argon2id$v=19$m=19456,t=2,p=1$ETHRCC0U+zFDl9DEDX9YNA$SsjSsrdSLo5AiB70kPZ7Zr+H82hnMxI3Lamnt5rTKQU",
  firstName: DEMO_PATIENT.first_name,
  lastName: DEMO_PATIENT.last_name,
  dateOfBirth: "1988-04-12",
  phone: "+1 (206) 555-0142",
  addressLine1: "1200 Pine Street",
  addressLine2: "Apt 4",
  city: "Seattle",
  state: "WA",
  zip: "98101",
  gender: "Prefer Not to Answer",
  locale: "en",
} as const;

/** The demo clinician's account (its argon2id hash of DEMO_CLINICIAN.password, computed once). */
export const SEED_DEMO_CLINICIAN = {
  email: DEMO_CLINICIAN.email,
  passwordHash:
    "$argon2id$v=19$m=19456,t=2,p=1$Uq/h4Yl5t9oK1tTEGIlBHw$5KtbZ75dFULJajP4cFxym3L0oi6u1+2BCfzE909MNJk",
  firstName: DEMO_CLINICIAN.first_name,
  lastName: DEMO_CLINICIAN.last_name,
  role: "clinician" as const,
};
