// Drives Glossa's translation memories with the official Node client library, changing only the
// base URL (and the authorization scheme, which the client spells in its vendor's name): listing,
// reading and deleting memories, and translating with one. The memory itself is made by the test.
// Prints what it got back as one JSON document.
//
// Usage: node memories.mjs BASE_URL DEVELOPER_KEY MEMORY_ID

import * as client from 'deepl-node';

const [baseUrl, key, memoryId] = process.argv.slice(2);
const api = new client.DeepLClient(key, {
  serverUrl: baseUrl,
  headers: { Authorization: `Service-Auth-Key ${key}` },
  maxRetries: 0,
});

const info = (memory) => ({
  translation_memory_id: memory.translationMemoryId,
  name: memory.name,
  source_language: memory.sourceLanguage,
  target_languages: memory.targetLanguages,
  segment_count: memory.segmentCount,
});

async function refusal(call) {
  try {
    await call();
    return 'accepted';
  } catch (error) {
    return `${error.constructor.name}: ${error.message}`;
  }
}

const report = {
  listed: (await api.listTranslationMemories(0, 5)).map(info),
  got: info(await api.getTranslationMemory(memoryId)),
};
report.translated = (
  await api.translateText('Press the red button. Wait.', 'en', 'de', { translationMemory: memoryId })
).text;
report.wrong_target = await refusal(() => api.translateText('Hello', 'en', 'it', { translationMemory: memoryId }));
await api.deleteTranslationMemory(memoryId);
report.after_delete = await refusal(() => api.getTranslationMemory(memoryId));
console.log(JSON.stringify(report));
