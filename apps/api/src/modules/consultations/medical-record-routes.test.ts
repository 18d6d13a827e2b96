import { createHash, randomBytes, randomUUID } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import {
  CONSULTATION_ERRORS,
  medicalDocumentListResponse,
  medicalDocumentResponse,
} from "@ambercare/contracts/consultation";
import { DOCUMENT_MAX_BYTES } from "@ambercare/contracts/consultation-limits";
import { auditLog } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanFileName, detectDocumentType } from "#api/modules/consultations/medical-document-service.ts";
import { bearer, createTestApp, registerPatient, type TestApp } from "#api/test-support.ts";

const URL = "/ambercare/medical-records/documents";
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_MAX: "100000" } });
});

afterAll(async () => {
  await t.close();
});

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(2048)]);
const PDF = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(4096)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(1024)]);

const upload = (
  token: string,
  body: Buffer,
  fileName: string | null = "scan.png",
  contentType = "application/octet-stream",
) =>
  t.app.inject({
    method: "POST",
    url: URL,
    headers: {
      ...bearer(token),
      "content-type": contentType,
      ...(fileName === null ? {} : { "x-file-name": encodeURIComponent(fileName) }),
    },
    payload: body,
  });

describe("medical documents", () => {
  it("stores a PNG, a PDF and a JPEG by their content and downloads them byte-identical", async () => {
    const ana = await registerPatient(t.app);
    for (const [bytes, name, type] of [
      [PNG, "x-ray.png", "image/png"],
      [PDF, "Лабораторни резултати.pdf", "application/pdf"],
      [JPEG, "rash.jpg", "image/jpeg"],
    ] as const) {
      // The claimed type is not trusted: a PDF sent as image/png is still stored as a PDF.
      const res = await upload(ana.access_token, bytes, name, "image/png");
      expect(res.statusCode, res.body).toBe(201);
      const { data } = medicalDocumentResponse.parse(res.json());
      expect(data).toMatchObject({ file_name: name, content_type: type, size: bytes.length });
      expect(data.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));

      const download = await t.app.inject({
        method: "GET",
        url: `${URL}/${data.id}`,
        headers: bearer(ana.access_token),
      });
      expect(download.statusCode).toBe(200);
      expect(download.headers["content-type"]).toBe(type);
      expect(download.headers["x-content-type-options"]).toBe("nosniff");
      expect(download.headers["content-disposition"]).toContain("attachment;");
      expect(download.headers["content-disposition"]).toContain(
        `filename*=UTF-8''${encodeURIComponent(name)}`,
      );
      expect(Buffer.compare(download.rawPayload, bytes)).toBe(0);
    }
    const list = medicalDocumentListResponse.parse(
      (await t.app.inject({ method: "GET", url: URL, headers: bearer(ana.access_token) })).json(),
    );
    expect(list.data.map((d) => d.file_name).sort()).toEqual(
      ["rash.jpg", "x-ray.png", "Лабораторни резултати.pdf"].sort(),
    );
  });

  it("keeps the files under DATA_DIR/uploads with random names", async () => {
    const ben = await registerPatient(t.app);
    const { data } = (await upload(ben.access_token, PNG, "secret-name.png")).json();
    const names = readdirSync(join(t.dataDir, "uploads"));
    expect(names.some((name) => name.includes("secret"))).toBe(false);
    expect(names.every((name) => /^[0-9a-f]{48}$/.test(name))).toBe(true);
    expect(data.id).toBeTruthy();
  });

  it("refuses a wrong type (415), an empty file or no name (400) and more than 10 MB (413)", async () => {
    const cy = await registerPatient(t.app);
    const html = await upload(
      cy.access_token,
      Buffer.from("<html><script>alert(1)</script></html>"),
      "page.pdf",
      "application/pdf",
    );
    expect(html.statusCode).toBe(415);
    expect(html.json()).toEqual({
      error: CONSULTATION_ERRORS.documentType,
      code: "DOCUMENT_TYPE_UNSUPPORTED",
    });
    const gif = await upload(cy.access_token, Buffer.from("GIF89a0000000000"), "cat.gif");
    expect(gif.statusCode).toBe(415);
    expect((await upload(cy.access_token, Buffer.alloc(0), "empty.pdf")).statusCode).toBe(400);
    expect((await upload(cy.access_token, PNG, null)).statusCode).toBe(400);
    expect((await upload(cy.access_token, PNG, "../")).statusCode).toBe(400);
    const big = Buffer.concat([PDF, Buffer.alloc(DOCUMENT_MAX_BYTES + 1 - PDF.length)]);
    const tooLarge = await upload(cy.access_token, big, "big.pdf");
    expect(tooLarge.statusCode).toBe(413);
    const exact = Buffer.concat([PDF, Buffer.alloc(DOCUMENT_MAX_BYTES - PDF.length)]);
    expect((await upload(cy.access_token, exact, "exactly-10mb.pdf")).statusCode).toBe(201);
    const text = await t.app.inject({
      method: "POST",
      url: URL,
      headers: { ...bearer(cy.access_token), "content-type": "text/plain", "x-file-name": "a.pdf" },
      payload: "%PDF-",
    });
    expect(text.statusCode).toBe(415);
  });

  it("lets only the owner download or delete (403), and deletes the file", async () => {
    const dee = await registerPatient(t.app);
    const eve = await registerPatient(t.app);
    const { data } = (await upload(dee.access_token, PDF, "letter.pdf")).json();
    for (const method of ["GET", "DELETE"] as const) {
      const res = await t.app.inject({ method, url: `${URL}/${data.id}`, headers: bearer(eve.access_token) });
      expect(res.statusCode).toBe(403);
    }
    const eveList = (
      await t.app.inject({ method: "GET", url: URL, headers: bearer(eve.access_token) })
    ).json();
    expect(eveList.data).toEqual([]);
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: `${URL}/${randomUUID()}`,
          headers: bearer(dee.access_token),
        })
      ).statusCode,
    ).toBe(404);

    const before = readdirSync(join(t.dataDir, "uploads")).length;
    const del = await t.app.inject({
      method: "DELETE",
      url: `${URL}/${data.id}`,
      headers: bearer(dee.access_token),
    });
    expect(del.statusCode).toBe(204);
    expect(readdirSync(join(t.dataDir, "uploads")).length).toBe(before - 1);
    const gone = await t.app.inject({
      method: "GET",
      url: `${URL}/${data.id}`,
      headers: bearer(dee.access_token),
    });
    expect(gone.statusCode).toBe(404);

    const actions = (await t.db.db.select().from(auditLog).where(eq(auditLog.userId, dee.user_id))).map(
      (r) => `${r.action} ×${r.count}`,
    );
    // Eve's two refused attempts are in Dee's log too (who tried, not what the document holds), as one
    // entry that counts them: they were on one document within a minute.
    expect(actions.sort()).toEqual(["access.refused ×2", "document.delete ×1", "document.upload ×1"]);
  });

  it("audits uploads, lists and downloads", async () => {
    const fay = await registerPatient(t.app);
    const { data } = (await upload(fay.access_token, JPEG, "photo.jpg")).json();
    await t.app.inject({ method: "GET", url: URL, headers: bearer(fay.access_token) });
    await t.app.inject({ method: "GET", url: `${URL}/${data.id}`, headers: bearer(fay.access_token) });
    const rows = await t.db.db.select().from(auditLog).where(eq(auditLog.userId, fay.user_id));
    expect(rows.map((r) => r.action).sort()).toEqual([
      "document.download",
      "document.list",
      "document.upload",
    ]);
    expect(rows.every((r) => r.resourceType === "document" && r.ip === "127.0.0.1")).toBe(true);
  });

  it("needs a token", async () => {
    const res = await t.app.inject({ method: "GET", url: URL });
    expect(res.statusCode).toBe(401);
    expect(existsSync(join(t.dataDir, "uploads"))).toBe(true);
  });
});

describe("detectDocumentType and cleanFileName", () => {
  it("reads the first bytes, not the name", () => {
    expect(detectDocumentType(PDF)).toBe("application/pdf");
    expect(detectDocumentType(PNG)).toBe("image/png");
    expect(detectDocumentType(JPEG)).toBe("image/jpeg");
    expect(detectDocumentType(Buffer.from("%PD"))).toBeNull();
    expect(detectDocumentType(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
  });

  it("drops paths, quotes and control characters", () => {
    expect(cleanFileName("C:\\Users\\me\\scan.pdf")).toBe("scan.pdf");
    expect(cleanFileName('a"b\r\nc.png')).toBe("abc.png");
    expect(cleanFileName("  ")).toBeNull();
    expect(cleanFileName("x".repeat(300))).toHaveLength(200);
  });
});
