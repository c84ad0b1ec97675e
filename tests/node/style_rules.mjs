// Drives Glossa's style rule endpoints with the official Node client library, changing only the
// base URL (and the authorization scheme, which the client spells in its vendor's name). Prints
// what it got back as one JSON document, for the end-to-end test to check.
//
// Usage: node style_rules.mjs BASE_URL DEVELOPER_KEY

import * as client from 'deepl-node';

const [baseUrl, key] = process.argv.slice(2);
const api = new client.DeepLClient(key, {
  serverUrl: baseUrl,
  headers: { Authorization: `Service-Auth-Key ${key}` },
  maxRetries: 0,
});

const info = (rule) => ({
  style_id: rule.styleId,
  name: rule.name,
  language: rule.language,
  version: rule.version,
  creation_time: rule.creationTime.toISOString(),
});

async function refusal(call) {
  try {
    await call();
    return 'accepted';
  } catch (error) {
    return `${error.constructor.name}: ${error.message}`;
  }
}

const created = await api.createStyleRule({
  name: 'Node house style',
  language: 'en',
  configured_rules: { punctuation: { apostrophe: 'use_curly_apostrophes' } },
  custom_instructions: [{ label: 'Brand', prompt: 'Keep product names in English.' }],
});
const report = { created: info(created), created_rules: created.configuredRules };
report.listed = (await api.getAllStyleRules()).map((rule) => rule.styleId);
report.got = info(await api.getStyleRule(created.styleId));
report.renamed = info(await api.updateStyleRuleName(created.styleId, 'Renamed'));
const updated = await api.updateStyleRuleConfiguredRules(created.styleId, {
  punctuation: { apostrophe: 'use_straight_apostrophes' },
});
report.updated = info(updated);
const added = await api.createStyleRuleCustomInstruction(created.styleId, { label: 'Tone', prompt: 'Be brief.' });
report.added = { label: added.label, prompt: added.prompt, has_id: Boolean(added.id) };
report.fetched = (await api.getStyleRuleCustomInstruction(created.styleId, added.id)).prompt;
report.replaced = (
  await api.updateStyleRuleCustomInstruction(created.styleId, added.id, { label: 'Tone', prompt: 'Be briefer.' })
).prompt;
await api.deleteStyleRuleCustomInstruction(created.styleId, added.id);
report.translated = (await api.translateText("It's done.", 'de', 'en-US', { styleRule: created.styleId })).text;
report.wrong_language = await refusal(() => api.translateText('Hallo', 'de', 'fr', { styleRule: created.styleId }));
await api.deleteStyleRule(created.styleId);
report.after_delete = await refusal(() => api.getStyleRule(created.styleId));
console.log(JSON.stringify(report));
