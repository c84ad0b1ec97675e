// Drives Glossa's translation memories with the official Node client library, changing only the
// base URL (and the authorization scheme, which the client spells in its vendor's name): listing,
// reading and deleting memories, and translating with one (MEMORY_ID, made by the test); importing
// a TMX file as a new memory through an import job and its upload URL, paging through its segments
// by their cursors, filtering them, and exporting it through an export job and its download URL.
// Prints what it got back as one JSON document.
//
// Usage: node memories.mjs BASE_URL DEVELOPER_KEY MEMORY_ID TMX_FILE EXPORT_FILE

import { readFileSync } from 'node:fs';
import * as client from 'deepl-node';

const [baseUrl, key, memoryId, tmxPath, exportPath] = process.argv.slice(2);
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

const jobInfo = (job) => ({
  operation: job.operation,
  status: job.results[0].status,
  display_name: job.displayName ?? null,
  translation_memory_id: job.translationMemoryId ?? null,
  result_memory: job.results[0].translationMemoryId ?? null,
  skipped: job.results[0].skippedSegmentCount ?? null,
  has_download_url: Boolean(job.results[0].downloadUrl),
});
const segment = (item) => [
  item.sourceText,
  item.targets.map((target) => [target.targetLanguage, target.targetText]).sort(),
];

const job = await api.importTranslationMemoryFromFilepath(tmxPath, { displayName: 'Client import', timeoutMs: 60000 });
const imported = job.results[0].translationMemoryId;
report.import = jobInfo(job);
report.imported = info(await api.getTranslationMemory(imported));
report.pages = [];
let cursor;
let page;
do {
  page = await api.listTranslationMemorySegments(imported, { pageSize: 1, pageCursor: cursor });
  report.pages.push(page.segments.map(segment));
  cursor = page.nextPageCursor;
} while (cursor);
report.segment_count = page.segmentCount;
report.filtered = (await api.listTranslationMemorySegments(imported, { filterText: 'BUTTON' })).segments.map(
  (item) => item.sourceText,
);
report.translated_with_import = (await api.translateText('Wait.', 'en', 'fr', { translationMemory: imported })).text;
const exported = await api.createTranslationMemoryExport(imported);
const again = await api.createTranslationMemoryExport(imported);
report.export_reused = [exported.reusedExisting, again.reusedExisting, exported.jobId === again.jobId];
report.export = jobInfo(await api.exportTranslationMemoryToFilepath(imported, exportPath, { timeoutMs: 60000 }));
report.exported_file = readFileSync(exportPath, 'utf8');
await api.deleteTranslationMemory(imported);
console.log(JSON.stringify(report));
