"""Drives Glossa's translation memories with the official Python client library, changing only the
base URL (and the authorization scheme, which the client spells in its vendor's name): listing,
reading and deleting memories, and translating with one (MEMORY_ID, made by the test); importing a
TMX file as a new memory through an import job and its upload URL, paging through its segments by
their cursors, filtering them, and exporting it through an export job and its download URL. The
exported file is read back with Python's own XML parser. Prints what it got back as one JSON
document.

Usage: memories.py BASE_URL DEVELOPER_KEY MEMORY_ID TMX_FILE EXPORT_FILE
"""

import json
import sys
import xml.etree.ElementTree as ElementTree

import deepl


def info(memory):
    return {
        "translation_memory_id": memory.translation_memory_id,
        "name": memory.name,
        "source_language": memory.source_language,
        "target_languages": memory.target_languages,
        "segment_count": memory.segment_count,
    }


def segment(item):
    return [item.source_text, sorted([target.target_language, target.target_text] for target in item.targets)]


def job_info(job):
    return {
        "operation": job.operation,
        "status": job.status,
        "display_name": job.display_name,
        "translation_memory_id": job.translation_memory_id,
        "result_memory": job.result.translation_memory_id,
        "skipped": job.result.skipped_segment_count,
        "has_download_url": bool(job.result.download_url),
    }


def exported_units(path):
    """The units of a TMX file as [[language, text], ...], read by ElementTree."""
    lang = "{http://www.w3.org/XML/1998/namespace}lang"
    root = ElementTree.parse(path).getroot()
    return [[[tuv.get(lang), tuv.find("seg").text] for tuv in unit.findall("tuv")] for unit in root.iter("tu")]


def refusal(call):
    """What the client raised for a call that should fail, or "accepted"."""
    try:
        call()
        return "accepted"
    except Exception as error:  # every refusal is reported as it is
        return f"refused ({type(error).__name__}): {error}"


def main():
    base_url, key, memory_id, tmx_path, export_path = sys.argv[1:6]
    client = deepl.DeepLClient(key, server_url=base_url, send_platform_info=False)
    # The client names its vendor in the authorization scheme; Glossa's is Service-Auth-Key.
    client.headers["Authorization"] = f"Service-Auth-Key {key}"

    listed = client.list_translation_memories(page=0, page_size=5)
    memory = client.get_translation_memory(memory_id)
    report = {
        "listed": [info(item) for item in listed],
        "got": info(memory),
        "translated": client.translate_text(
            "Press the red button. Wait.", source_lang="EN", target_lang="DE",
            translation_memory=memory, translation_memory_threshold=80,
        ).text,
        "wrong_target": refusal(
            lambda: client.translate_text("Hello", source_lang="EN", target_lang="IT", translation_memory=memory_id)
        ),
    }
    client.delete_translation_memory(memory)
    report["after_delete"] = refusal(lambda: client.get_translation_memory(memory_id))

    job = client.import_translation_memory_from_filepath(tmx_path, display_name="Client import", timeout_s=60)
    imported = job.result.translation_memory_id
    report["import"] = job_info(job)
    report["imported"] = info(client.get_translation_memory(imported))
    pages, cursor = [], None
    while True:
        page = client.list_translation_memory_segments(imported, page_size=1, page_cursor=cursor)
        pages.append([segment(item) for item in page])
        cursor = page.next_page_cursor
        if not cursor:
            break
    report["pages"] = pages
    report["segment_count"] = page.segment_count
    filtered = client.list_translation_memory_segments(imported, filter_text="BUTTON")
    report["filtered"] = [item.source_text for item in filtered]
    report["translated_with_import"] = client.translate_text(
        "Wait.", source_lang="EN", target_lang="FR", translation_memory=imported
    ).text
    export = client.create_translation_memory_export(imported)
    again = client.create_translation_memory_export(imported)
    report["export_reused"] = [export.reused_existing, again.reused_existing, export.job_id == again.job_id]
    report["export"] = job_info(client.export_translation_memory_to_filepath(imported, export_path, timeout_s=60))
    report["exported_units"] = exported_units(export_path)
    client.delete_translation_memory(imported)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
