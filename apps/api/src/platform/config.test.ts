import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EnvError } from "@ambercare/contracts/server-env";
import { afterEach, describe, expect, it } from "vitest";
import { TEST_ARGON2_PARAMS } from "#api/platform/argon2-params.ts";
import { apiPublicUrl, loadConfig, REPOSITORY_ROOT, seedsDemoPatient } from "#api/platform/config.ts";

const secrets = {
  PUBLIC_API_TOKEN: "public-token-0123456789abcdefgh",
  SERVICE_ACCOUNT_EMAIL: "service@example.org",
  SERVICE_ACCOUNT_PASSWORD: "a-long-service-password",
  CAPTCHA_HMAC_KEY: "captcha-hmac-key-0123456789abcdefgh",
  LIST_TOKEN_SECRET: "list-token-secret-0123456789abcdefgh",
  SECOND_FACTOR_KEY: "second-factor-key-0123456789abcdefgh",
  VAPID_PUBLIC_KEY: "BGFKnsXPn1fkxYVqpcIrTFK4rMVoLtDbkDhCKZq1sHhPX-QJn_2cca24-SZMxcrcAdD_7l00q5fJVLMhceUn-rM",
  VAPID_PRIVATE_KEY: "S8aN83QtospE5IYztzEsGjNZr2dRNnFjlYAkqL0XKbE",
};

function configError(env: Record<string, string | undefined>): EnvError {
  try {
    loadConfig({ NODE_ENV: "test", ...secrets, ...env }, { root: "/srv/ambercare" });
  } catch (error) {
    if (error instanceof EnvError) return error;
    throw error;
  }
  throw new Error("expected loadConfig to throw");
}

describe("loadConfig", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("applies the documented defaults", () => {
    const config = loadConfig({ NODE_ENV: "test", ...secrets }, { root: "/srv/ambercare" });
    expect(config).toMatchObject({
      API_PORT: 4000,
      API_HOST: "127.0.0.1",
      DATA_DIR: "/srv/ambercare/.data",
      PRODUCT_SLUG: "ambercare",
      PRODUCT_NAME: "Ambercare",
      LOG_LEVEL: "info",
      RATE_LIMIT_MAX: 300,
      TRUST_PROXY: false,
      SUPPORT_EMAIL: "support@ambercare.example",
      SUPPORT_SEGMENT: "patient",
      ALTCHA_MAX_NUMBER: 100_000,
      RECAPTCHA_MIN_SCORE: 0.5,
      mainApiBase: "http://127.0.0.1:4000/api/v1",
      careApiBase: "http://127.0.0.1:4000",
      ...secrets,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.RECAPTCHA_SITE_KEY).toBeUndefined();
    expect(config.SENDGRID_API_KEY).toBeUndefined();
    expect(apiPublicUrl(config)).toBe("http://localhost:4000");
  });

  it("reads the TURN relay's settings, which go together, and keeps the forced relay out of production", () => {
    const config = loadConfig({
      TURN_URLS: "turn:turn.example.org:3478?transport=udp, turns:turn.example.org:5349",
      TURN_SECRET: "a-shared-secret-of-coturn",
      STUN_URLS: "stun:turn.example.org:3478",
    });
    expect(config.TURN_URLS).toEqual([
      "turn:turn.example.org:3478?transport=udp",
      "turns:turn.example.org:5349",
    ]);
    expect(config.STUN_URLS).toEqual(["stun:turn.example.org:3478"]);
    expect(config.TURN_CREDENTIAL_TTL_S).toBe(3600);
    expect(config.CALL_ICE_TRANSPORT_POLICY).toBe("all");
    expect(() => loadConfig({ TURN_URLS: "turn:turn.example.org:3478" })).toThrow(EnvError);
    expect(() =>
      loadConfig({ TURN_URLS: "https://turn.example.org", TURN_SECRET: "a-shared-secret-of-coturn" }),
    ).toThrow(EnvError);
    expect(() => loadConfig({ CALL_ICE_TRANSPORT_POLICY: "relay" })).toThrow(EnvError);
  });

  it("hashes passwords at OWASP's argon2id cost unless told, and never cheaper in production", () => {
    const production = { NODE_ENV: "production", MAIL_TO_FILES: "true", ...secrets };
    expect(loadConfig(production, { root: "/srv/ambercare" }).ARGON2_PARAMS).toEqual({
      memoryCost: 19_456,
      timeCost: 2,
      parallelism: 1,
    });
    // Another of OWASP's lines (less memory, more passes) is as strong.
    expect(
      loadConfig({ ...production, ARGON2_PARAMS: "m=12288,t=3,p=1" }, { root: "/srv/ambercare" })
        .ARGON2_PARAMS,
    ).toEqual({ memoryCost: 12_288, timeCost: 3, parallelism: 1 });
    expect(() =>
      loadConfig({ ...production, ARGON2_PARAMS: TEST_ARGON2_PARAMS }, { root: "/srv/ambercare" }),
    ).toThrow(/ARGON2_PARAMS: cheaper than OWASP's argon2id minimum/);
    expect(() =>
      loadConfig({ ...production, ARGON2_PARAMS: "m=19455,t=2,p=1" }, { root: "/srv/ambercare" }),
    ).toThrow(EnvError);
    // Outside production the cheap cost of the tests is accepted; a malformed value never is.
    expect(configError({ ARGON2_PARAMS: "19456,2,1" }).message).toMatch(/ARGON2_PARAMS/);
    expect(configError({ ARGON2_PARAMS: "m=4,t=1,p=1" }).message).toMatch(/ARGON2_PARAMS/);
    expect(
      loadConfig({ NODE_ENV: "test", ...secrets, ARGON2_PARAMS: TEST_ARGON2_PARAMS }).ARGON2_PARAMS,
    ).toEqual({ memoryCost: 64, timeCost: 1, parallelism: 1 });
  });

  it("reads every variable it knows", () => {
    const config = loadConfig(
      {
        NODE_ENV: "production",
        ...secrets,
        API_PORT: "8080",
        API_HOST: "0.0.0.0",
        API_URL: "https://api.example.org/",
        CARE_API_URL: "https://care.example.org",
        DATA_DIR: "/var/lib/ambercare",
        DATABASE_URL: "postgres://app:pw@db:5432/ambercare",
        PRODUCT_SLUG: "ambercare",
        SMTP_URL: "smtps://user:pw@smtp.example.org:465",
        LOG_LEVEL: "warn",
        RATE_LIMIT_MAX: "120",
        TRUST_PROXY: "10.0.0.0/8, loopback",
        SUPPORT_EMAIL: "help@example.org",
        SUPPORT_SEGMENT: "members",
        ALTCHA_MAX_NUMBER: "50000",
        RECAPTCHA_SITE_KEY: "site-key",
        RECAPTCHA_SECRET: "recaptcha-secret",
        RECAPTCHA_MIN_SCORE: "0.7",
        SENDGRID_API_KEY: "SG.key",
        SENDGRID_LIST_ID: "list-1",
        API_PUBLIC_URL: "https://api.example.org/",
      },
      { root: "/" },
    );
    expect(apiPublicUrl(config)).toBe("https://api.example.org");
    expect(config).toMatchObject({
      API_PORT: 8080,
      API_HOST: "0.0.0.0",
      DATA_DIR: "/var/lib/ambercare",
      DATABASE_URL: "postgres://app:pw@db:5432/ambercare",
      SMTP_URL: "smtps://user:pw@smtp.example.org:465",
      LOG_LEVEL: "warn",
      RATE_LIMIT_MAX: 120,
      TRUST_PROXY: ["10.0.0.0/8", "loopback"],
      SUPPORT_EMAIL: "help@example.org",
      SUPPORT_SEGMENT: "members",
      ALTCHA_MAX_NUMBER: 50_000,
      RECAPTCHA_SITE_KEY: "site-key",
      RECAPTCHA_SECRET: "recaptcha-secret",
      RECAPTCHA_MIN_SCORE: 0.7,
      SENDGRID_API_KEY: "SG.key",
      SENDGRID_LIST_ID: "list-1",
      mainApiBase: "https://api.example.org/api/v1",
      careApiBase: "https://care.example.org",
    });
  });

  it("parses TRUST_PROXY as a boolean or a hop count too", () => {
    const base = { NODE_ENV: "test", ...secrets };
    expect(loadConfig({ ...base, TRUST_PROXY: "true" }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ ...base, TRUST_PROXY: "false" }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
  });

  it.each([
    ["API_PORT", "not-a-port"],
    ["API_PORT", "70000"],
    ["RATE_LIMIT_MAX", "0"],
    ["RATE_LIMIT_MAX", "lots"],
    ["DATABASE_URL", "mysql://db/ambercare"],
    ["SMTP_URL", "http://mail.example.org"],
    ["TRUST_PROXY", "everyone"],
    ["LOG_LEVEL", "loud"],
    ["PRODUCT_SLUG", "Amber Care"],
    ["API_URL", "ftp://api.example.org"],
    ["PUBLIC_API_TOKEN", "short"],
    ["CAPTCHA_HMAC_KEY", "short"],
    ["LIST_TOKEN_SECRET", "short"],
    ["SUPPORT_EMAIL", "not-an-address"],
    ["SUPPORT_SEGMENT", "Two Words"],
    ["RECAPTCHA_MIN_SCORE", "2"],
    ["ALTCHA_MAX_NUMBER", "10"],
  ])("names %s when it is wrong (%s)", (name, value) => {
    const error = configError({ [name]: value });
    expect(error.message).toContain(`${name}:`);
  });

  it("never echoes a wrong value, which may be a secret", () => {
    const error = configError({ DATABASE_URL: "mysql://root:hunter2@db/ambercare" });
    expect(error.message).not.toContain("hunter2");
  });

  it("requires the service secrets in production on PostgreSQL, naming each", () => {
    const error = (() => {
      try {
        loadConfig({
          NODE_ENV: "production",
          SMTP_URL: "smtp://mail.internal:25",
          DATABASE_URL: "postgres://app@db.internal:5432/ambercare",
          PUBLIC_API_TOKEN: secrets.PUBLIC_API_TOKEN,
        });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(EnvError);
    expect((error as Error).message).toMatch(/SERVICE_ACCOUNT_EMAIL: required in production/);
    expect((error as Error).message).toMatch(/SERVICE_ACCOUNT_PASSWORD: required in production/);
    expect((error as Error).message).not.toContain("PUBLIC_API_TOKEN");
  });

  it("wants both reCAPTCHA keys or neither", () => {
    expect(configError({ RECAPTCHA_SITE_KEY: "site-key" }).message).toMatch(
      /RECAPTCHA_SITE_KEY, RECAPTCHA_SECRET/,
    );
    expect(configError({ RECAPTCHA_SECRET: "secret" }).message).toMatch(/set both/);
  });

  it("requires the captcha and list-token keys in production on PostgreSQL", () => {
    const {
      CAPTCHA_HMAC_KEY: _captcha,
      LIST_TOKEN_SECRET: _list,
      SECOND_FACTOR_KEY: _secondFactor,
      ...service
    } = secrets;
    const error = (() => {
      try {
        loadConfig({
          NODE_ENV: "production",
          SMTP_URL: "smtp://mail.internal:25",
          DATABASE_URL: "postgres://app@db.internal:5432/ambercare",
          ...service,
        });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(EnvError);
    expect((error as Error).message).toMatch(/CAPTCHA_HMAC_KEY: required in production/);
    expect((error as Error).message).toMatch(/LIST_TOKEN_SECRET: required in production/);
    expect((error as Error).message).toMatch(/SECOND_FACTOR_KEY: required in production/);
  });

  it("generates a VAPID pair in development, keeps it, and requires one in production on PostgreSQL", () => {
    const root = mkdtempSync(join(tmpdir(), "ambercare-config-"));
    dirs.push(root);
    const first = loadConfig({ NODE_ENV: "development", DATA_DIR: "./.data" }, { root });
    expect(first.VAPID_PUBLIC_KEY).toMatch(/^B[A-Za-z0-9_-]{86}$/);
    expect(first.VAPID_PRIVATE_KEY).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = loadConfig({ NODE_ENV: "development", DATA_DIR: "./.data" }, { root });
    expect(again.VAPID_PUBLIC_KEY).toBe(first.VAPID_PUBLIC_KEY);
    expect(again.VAPID_PRIVATE_KEY).toBe(first.VAPID_PRIVATE_KEY);
    const error = configError({
      NODE_ENV: "production",
      SMTP_URL: "smtp://mail.internal:25",
      DATABASE_URL: "postgres://app@db.internal:5432/ambercare",
      VAPID_PUBLIC_KEY: undefined,
      VAPID_PRIVATE_KEY: undefined,
    });
    expect(error.message).toMatch(/VAPID_PUBLIC_KEY: required in production/);
    expect(
      configError({ VAPID_PUBLIC_KEY: secrets.VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: "" }).message,
    ).toMatch(/VAPID_PRIVATE_KEY/);
  });

  it("generates the captcha and list-token keys beside the service secrets, keeping those", () => {
    const root = mkdtempSync(join(tmpdir(), "ambercare-config-"));
    dirs.push(root);
    const first = loadConfig({ NODE_ENV: "development", DATA_DIR: "./.data" }, { root });
    const file = join(root, ".data", "dev-secrets.json");
    const stored = JSON.parse(readFileSync(file, "utf8"));
    expect(stored).toMatchObject({
      PUBLIC_API_TOKEN: first.PUBLIC_API_TOKEN,
      SERVICE_ACCOUNT_PASSWORD: first.SERVICE_ACCOUNT_PASSWORD,
      CAPTCHA_HMAC_KEY: first.CAPTCHA_HMAC_KEY,
      LIST_TOKEN_SECRET: first.LIST_TOKEN_SECRET,
      SECOND_FACTOR_KEY: first.SECOND_FACTOR_KEY,
    });
    expect(first.CAPTCHA_HMAC_KEY).not.toBe(first.LIST_TOKEN_SECRET);
    expect(first.SECOND_FACTOR_KEY).toHaveLength(43);
    expect(statSync(file).mode & 0o077).toBe(0);
    const second = loadConfig({ NODE_ENV: "development", DATA_DIR: "./.data" }, { root });
    expect(second.CAPTCHA_HMAC_KEY).toBe(first.CAPTCHA_HMAC_KEY);
    expect(second.LIST_TOKEN_SECRET).toBe(first.LIST_TOKEN_SECRET);
    expect(second.SECOND_FACTOR_KEY).toBe(first.SECOND_FACTOR_KEY);
  });

  it("resolves a relative DATA_DIR from the repository root, not the working directory", () => {
    const config = loadConfig({ NODE_ENV: "test", ...secrets, DATA_DIR: "./.data-e2e" });
    expect(config.DATA_DIR).toBe(join(REPOSITORY_ROOT, ".data-e2e"));
    expect(existsSync(join(REPOSITORY_ROOT, "apps", "api", "src", "platform", "config.ts"))).toBe(true);
  });

  it("otherwise generates the secrets once in DATA_DIR and reuses them", () => {
    const root = mkdtempSync(join(tmpdir(), "ambercare-config-"));
    dirs.push(root);
    const env = { NODE_ENV: "production", MAIL_TO_FILES: "true", DATA_DIR: "./.data" };
    const first = loadConfig(env, { root });
    expect(first.DATA_DIR).toBe(join(root, ".data"));
    expect(existsSync(join(root, ".data", "dev-secrets.json"))).toBe(true);
    expect(first.PUBLIC_API_TOKEN.length).toBeGreaterThanOrEqual(24);
    const second = loadConfig(env, { root });
    expect(second.PUBLIC_API_TOKEN).toBe(first.PUBLIC_API_TOKEN);
    expect(
      JSON.parse(readFileSync(join(root, ".data", "dev-secrets.json"), "utf8")).SERVICE_ACCOUNT_PASSWORD,
    ).toBe(second.SERVICE_ACCOUNT_PASSWORD);
  });
});

describe("notification records", () => {
  it("keeps them 90 days unless told, a whole number of days from 1", () => {
    expect(
      loadConfig({ NODE_ENV: "test", ...secrets }, { root: "/srv" }).NOTIFICATION_DELIVERY_RETENTION_DAYS,
    ).toBe(90);
    expect(
      loadConfig(
        { NODE_ENV: "test", ...secrets, NOTIFICATION_DELIVERY_RETENTION_DAYS: "30" },
        { root: "/srv" },
      ).NOTIFICATION_DELIVERY_RETENTION_DAYS,
    ).toBe(30);
    for (const wrong of ["0", "-5", "1.5", "ninety", "100000"]) {
      expect(configError({ NOTIFICATION_DELIVERY_RETENTION_DAYS: wrong }).message).toMatch(
        /NOTIFICATION_DELIVERY_RETENTION_DAYS/,
      );
    }
  });
});

describe("the clinic's time zone", () => {
  it("is UTC unless told, and an IANA zone the engine knows", () => {
    const load = (env: Record<string, string> = {}) =>
      loadConfig({ NODE_ENV: "test", ...secrets, ...env }, { root: "/srv" }).CLINIC_TIME_ZONE;
    expect(load()).toBe("UTC");
    expect(load({ CLINIC_TIME_ZONE: "America/New_York" })).toBe("America/New_York");
    for (const wrong of ["Mars/Olympus", "EST5EDT+", "Europe/Nowhere"]) {
      expect(configError({ CLINIC_TIME_ZONE: wrong }).message).toMatch(/CLINIC_TIME_ZONE/);
    }
  });
});

describe("the board's unusual-access thresholds", () => {
  it("are 3 times the median of 30 days and above 20 unless told, and refuse nonsense", () => {
    const load = (env: Record<string, string> = {}) => {
      const config = loadConfig({ NODE_ENV: "test", ...secrets, ...env }, { root: "/srv" });
      return [config.BOARD_READS_FACTOR, config.BOARD_READS_FLOOR, config.BOARD_READS_HISTORY_DAYS];
    };
    expect(load()).toEqual([3, 20, 30]);
    expect(
      load({ BOARD_READS_FACTOR: "2.5", BOARD_READS_FLOOR: "0", BOARD_READS_HISTORY_DAYS: "7" }),
    ).toEqual([2.5, 0, 7]);
    const wrongs: Array<[string, string]> = [
      ["BOARD_READS_FACTOR", "0.5"],
      ["BOARD_READS_FACTOR", "three"],
      ["BOARD_READS_FLOOR", "-1"],
      ["BOARD_READS_FLOOR", "2.5"],
      ["BOARD_READS_HISTORY_DAYS", "0"],
      ["BOARD_READS_HISTORY_DAYS", "400"],
    ];
    for (const [name, wrong] of wrongs) {
      expect(configError({ [name]: wrong }).message).toMatch(new RegExp(name));
    }
  });
});

describe("seedsDemoPatient", () => {
  it("seeds the demo patient only outside production, unless told", () => {
    expect(seedsDemoPatient({ NODE_ENV: "development" })).toBe(true);
    expect(seedsDemoPatient({ NODE_ENV: "test" })).toBe(true);
    // On PGlite as on PostgreSQL: a production build never has a publicly known password by default.
    expect(seedsDemoPatient({ NODE_ENV: "production" })).toBe(false);
    expect(seedsDemoPatient({ NODE_ENV: "production", SEED_DEMO_PATIENT: true })).toBe(true);
    expect(seedsDemoPatient({ NODE_ENV: "development", SEED_DEMO_PATIENT: false })).toBe(false);
  });
});

describe("mail in production", () => {
  it("refuses to start without SMTP_URL, naming it, unless MAIL_TO_FILES=true asks for files", () => {
    const error = configError({ NODE_ENV: "production" });
    expect(error.message).toMatch(/SMTP_URL: required in production/);
    expect(error.message).toMatch(/MAIL_TO_FILES=true/);
    const files = loadConfig({ NODE_ENV: "production", ...secrets, MAIL_TO_FILES: "true" }, { root: "/srv" });
    expect(files.SMTP_URL).toBeUndefined();
    const smtp = loadConfig(
      { NODE_ENV: "production", ...secrets, SMTP_URL: "smtp://mail.internal:25" },
      { root: "/srv" },
    );
    expect(smtp.SMTP_URL).toBe("smtp://mail.internal:25");
    // Outside production, files remain the default.
    expect(loadConfig({ NODE_ENV: "development", ...secrets }, { root: "/srv" }).SMTP_URL).toBeUndefined();
  });

  it("writes text messages to files unless Twilio is configured, and checks Twilio's settings at start", () => {
    expect(loadConfig({ NODE_ENV: "test", ...secrets }, { root: "/srv" }).TEXT_MESSAGES).toBe("files");
    expect(configError({ TEXT_MESSAGES: "twilio" }).message).toBe(
      "TEXT_MESSAGES=twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID",
    );
    const twilio = {
      TEXT_MESSAGES: "twilio",
      TWILIO_ACCOUNT_SID: `AC${"0".repeat(32)}`,
      TWILIO_AUTH_TOKEN: "twilio-auth-token-0123456789",
    };
    expect(configError(twilio).message).toMatch(/needs TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID$/);
    expect(configError({ ...twilio, TWILIO_FROM: "0888 123 456" }).message).toMatch(/TWILIO_FROM: .*E\.164/);
    expect(
      configError({ ...twilio, TWILIO_ACCOUNT_SID: "AC123", TWILIO_FROM: "+15550100000" }).message,
    ).toMatch(/TWILIO_ACCOUNT_SID/);
    const config = loadConfig(
      { NODE_ENV: "test", ...secrets, ...twilio, TWILIO_FROM: "+15550100000" },
      { root: "/srv" },
    );
    expect(config).toMatchObject({ TEXT_MESSAGES: "twilio", TWILIO_API_URL: "https://api.twilio.com" });
  });

  it("offers no texts in production on PostgreSQL unless a provider, or files, is asked for", () => {
    const production = {
      NODE_ENV: "production",
      SMTP_URL: "smtp://mail.internal:25",
      DATABASE_URL: "postgres://ambercare@db.internal/ambercare",
      ...secrets,
    };
    // Nobody would receive the confirmation codes written to disk: the section is off.
    expect(loadConfig(production, { root: "/srv" }).TEXT_MESSAGES).toBe("off");
    // Files there must be asked for, as MAIL_TO_FILES=true is (a staging trial).
    expect(loadConfig({ ...production, TEXT_MESSAGES: "files" }, { root: "/srv" }).TEXT_MESSAGES).toBe(
      "files",
    );
    expect(
      loadConfig(
        {
          ...production,
          TEXT_MESSAGES: "twilio",
          TWILIO_ACCOUNT_SID: `AC${"0".repeat(32)}`,
          TWILIO_AUTH_TOKEN: "twilio-auth-token-0123456789",
          TWILIO_FROM: "+15550100000",
        },
        { root: "/srv" },
      ).TEXT_MESSAGES,
    ).toBe("twilio");
    // The local trial of the production build on PGlite, and development, keep files.
    const { DATABASE_URL: _postgres, ...onPglite } = production;
    expect(loadConfig(onPglite, { root: "/srv" }).TEXT_MESSAGES).toBe("files");
    expect(loadConfig({ NODE_ENV: "development", ...secrets }, { root: "/srv" }).TEXT_MESSAGES).toBe("files");
    // Off may be asked for anywhere; nothing else is known.
    expect(
      loadConfig({ NODE_ENV: "test", ...secrets, TEXT_MESSAGES: "off" }, { root: "/srv" }).TEXT_MESSAGES,
    ).toBe("off");
    expect(configError({ TEXT_MESSAGES: "console" }).message).toMatch(/TEXT_MESSAGES/);
  });
});
