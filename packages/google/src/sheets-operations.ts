import type { GoogleCallResult, GoogleClient } from "./google-client.js";

/**
 * Sheets actions through the Sheets v4 REST API: `append_row` is `values:append` of one row
 * after the sheet's table, `update_cell` is `values:update` of the row starting at `cell`.
 * Values are entered as a user would type them (`valueInputOption=USER_ENTERED`).
 */
export async function runSheetsOperation(
  client: GoogleClient,
  input: {
    credentialId: string;
    baseUrl: string;
    spreadsheetId: string;
    sheetName: string;
    operation: "append_row" | "update_cell";
    cell?: string;
    values: string[];
  },
): Promise<GoogleCallResult> {
  const sheet = `'${input.sheetName}'`;
  const base = `${input.baseUrl}/v4/spreadsheets/${encodeURIComponent(input.spreadsheetId)}/values`;
  if (input.operation === "append_row") {
    const range = `${sheet}!A1`;
    return client.call(input.credentialId, {
      method: "POST",
      url: `${base}/${encodeURIComponent(range)}:append?valueInputOption=USER_ENTERED&insertDataOption=INSERT_ROWS`,
      json: { range, majorDimension: "ROWS", values: [input.values] },
    });
  }
  const range = `${sheet}!${input.cell ?? "A1"}`;
  return client.call(input.credentialId, {
    method: "PUT",
    url: `${base}/${encodeURIComponent(range)}?valueInputOption=USER_ENTERED`,
    json: { range, majorDimension: "ROWS", values: [input.values] },
  });
}
