// Drives Glossa's document translation with the official Node client library, changing only the
// base URL (and the authorization scheme, which the client spells in its vendor's name): a txt file
// translated in one call (upload, status until done, download) with a glossary and a formality; an
// html page uploaded from a buffer, its status read, waited for and downloaded step by step; a
// second download and a status call after it; and uploads the application refuses. Prints what it
// got back as one JSON document.
//
// Usage: node documents.mjs BASE_URL DEVELOPER_KEY GLOSSARY_ID TXT_FILE TXT_OUTPUT HTML_FILE HTML_OUTPUT FORMALITY

import { readFileSync } from 'node:fs';
import * as client from 'deepl-node';

const [baseUrl, key, glossaryId, txtPath, txtOutput, htmlPath, htmlOutput, formality] = process.argv.slice(2);
const api = new client.DeepLClient(key, {
  serverUrl: baseUrl,
  headers: { Authorization: `Service-Auth-Key ${key}` },
  maxRetries: 0,
});

async function refusal(call) {
  try {
    await call();
    return 'accepted';
  } catch (error) {
    return `refused (${error.constructor.name}): ${error.message}`;
  }
}

const statusInfo = (status) => ({
  status: status.status,
  done: status.done(),
  billed_characters: status.billedCharacters ?? null,
});

const translated = await api.translateDocument(txtPath, txtOutput, 'en', 'de', { formality, glossary: glossaryId });
const report = { translated: statusInfo(translated) };

const handle = await api.uploadDocument(readFileSync(htmlPath), 'en', 'fr', { filename: 'page.html' });
report.handle = { document_id: handle.documentId, document_key: handle.documentKey };
report.first_status = (await api.getDocumentStatus(handle)).status;
report.html_status = statusInfo((await api.isDocumentTranslationComplete(handle)).status);
await api.downloadDocument(handle, htmlOutput);
report.downloaded_again = await refusal(() => api.downloadDocument(handle, `${htmlOutput}.again`));
report.status_after_download = await refusal(() => api.getDocumentStatus(handle));

report.unknown_type = await refusal(() =>
  api.uploadDocument(Buffer.from('Hello.'), null, 'de', { filename: 'notes.xyz' }),
);
report.docx = await refusal(() =>
  api.uploadDocument(Buffer.from('PK not really'), null, 'de', { filename: 'report.docx' }),
);
report.same_language = await refusal(() =>
  api.uploadDocument(Buffer.from('Hallo.'), 'de', 'de', { filename: 'a.txt' }),
);
console.log(JSON.stringify(report));
