import type { User } from "@ambercare/contracts/auth";

/** A patient account as both APIs answer it (`GET /api/auth/me`, `get-user-details`), for the web's tests. */
export const JANE_ACCOUNT: User = {
  id: "7d9c3a2e-4f1b-4c8a-9e2d-1a2b3c4d5e6f",
  email: "jane@example.org",
  first_name: "Jane",
  last_name: "Doe",
  date_of_birth: null,
  phone: null,
  address_line1: null,
  address_line2: null,
  city: null,
  state: null,
  zip: null,
  gender: null,
  locale: "en",
  time_zone: null,
  profile_completed: false,
  created_at: "2026-11-22T05:00:00.000Z",
  role: "patient",
};
