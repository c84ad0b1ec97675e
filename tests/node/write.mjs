// Drives Glossa's text improvement with the official Node client library, changing only the base
// URL (and the authorization scheme, which the client spells in its vendor's name). Prints what
// it got back as one JSON document, for the end-to-end test to check.
//
// Usage: node write.mjs BASE_URL DEVELOPER_KEY

import * as client from 'deepl-node';

const [baseUrl, key] = process.argv.slice(2);
const writer = new client.DeepLClient(key, {
  serverUrl: baseUrl,
  headers: { Authorization: `Service-Auth-Key ${key}` },
  maxRetries: 0,
});

const single = await writer.rephraseText('I has a apple.', 'en-US');
const styled = await writer.rephraseText(['We do not know.', 'It is late.'], 'en-US', 'casual');
const toned = await writer.rephraseText('I think that the plan is good.', 'en-US', null, 'prefer_confident');
const report = {
  single: {
    text: single.text,
    detected_source_language: single.detectedSourceLang,
    target_language: single.targetLang,
  },
  styled: styled.map((result) => result.text),
  toned: toned.text,
};
try {
  await writer.rephraseText('Hola.', 'es', 'business');
  report.refused = 'accepted';
} catch (error) {
  // The client's own error type for API errors.
  report.refused = `${error.constructor.name}: ${error.message}`;
}
console.log(JSON.stringify(report));
