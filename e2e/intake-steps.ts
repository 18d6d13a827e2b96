import type { Page } from "playwright-core";

/**
 * Fills the intake for Mia, a daughter, with three symptoms and a temperature, in California unless
 * told; stops before submitting.
 */
export async function fillIntakeForChild(page: Page, state = "California") {
  await page.getByRole("radio", { name: /Someone I care for/ }).check();
  await page.getByLabel("Their relationship to you").selectOption({ label: "Daughter" });
  await page.getByLabel("Their first name").fill("Mia");
  await page.getByLabel("Their last name").fill("Tester");
  await page.getByLabel("Their date of birth").fill("2019-05-02");
  await page.getByLabel("Gender").selectOption({ label: "Female" });
  await page.getByLabel("Race").selectOption({ label: "Asian" });
  await page.getByLabel("Ethnicity").selectOption({ label: "Not Hispanic or Latino" });
  await page.getByLabel("US state where the patient is now").selectOption({ label: state });
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByText("Step 2 of 4").waitFor();
  for (const symptom of ["Fever", "Cough", "Sore Throat"]) {
    await page.getByRole("checkbox", { name: symptom, exact: true }).check();
  }
  await page.getByLabel("When did the symptoms start?").fill("2026-01-02");
  await page.getByLabel(/Current temperature/).fill("101.3");
  await page.getByLabel(/Where was it measured/).selectOption({ label: "Mouth" });
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByText("Step 3 of 4").waitFor();
  await page.getByRole("radio", { name: "No", exact: true }).check();
  await page.getByRole("textbox", { name: /Allergies/ }).fill("Penicillin");
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByText("Step 4 of 4").waitFor();
  await page.getByRole("checkbox", { name: /informed consent/ }).check();
  await page.getByRole("checkbox", { name: /recording consent/ }).check();
  await page.getByRole("checkbox", { name: /financial communications/ }).check();
}
