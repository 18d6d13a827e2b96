/** Form option lists, spelt exactly as the API exchanges them (case and all). */

export const GENDERS = Object.freeze([
  "male",
  "female",
  "Unspecified",
  "Undisclosed",
  "Prefer Not to Answer",
] as const);
export type Gender = (typeof GENDERS)[number];

export const RELATIONSHIPS = Object.freeze([
  "Daughter",
  "Son",
  "Domestic Partner",
  "Husband",
  "Wife",
  "Parent",
  "Other",
] as const);
export type Relationship = (typeof RELATIONSHIPS)[number];

export const RACES = Object.freeze([
  "American Indian and Alaskan Native",
  "Asian",
  "Black or African American",
  "Native Hawaiian and other Pacific Islander",
  "Two or more races",
  "White",
  "Other",
  "Prefer not to answer",
  "Unknown",
] as const);
export type Race = (typeof RACES)[number];

export const ETHNICITIES = Object.freeze([
  "Hispanic or Latino",
  "Not Hispanic or Latino",
  "Other",
  "Prefer not to answer",
  "Unknown",
] as const);
export type Ethnicity = (typeof ETHNICITIES)[number];

export const TRANSPORTS = Object.freeze([
  "Private Car",
  "Motor Bike",
  "Bus",
  "Train",
  "Flight",
  "Ship",
  "Other",
] as const);
export type Transport = (typeof TRANSPORTS)[number];

export const TEMPERATURE_LOCATIONS = Object.freeze(["Forehead", "Mouth", "Ear", "Armpit", "Rectum"] as const);
export type TemperatureLocation = (typeof TEMPERATURE_LOCATIONS)[number];
