"""Drives Glossa's translation memories with the official Python client library, changing only the
base URL (and the authorization scheme, which the client spells in its vendor's name): listing,
reading and deleting memories, and translating with one. The memory itself is made by the test
(the client cannot create one without an import job). Prints what it got back as one JSON document.

Usage: memories.py BASE_URL DEVELOPER_KEY MEMORY_ID
"""

import json
import sys

import deepl


def info(memory):
    return {
        "translation_memory_id": memory.translation_memory_id,
        "name": memory.name,
        "source_language": memory.source_language,
        "target_languages": memory.target_languages,
        "segment_count": memory.segment_count,
    }


def refusal(call):
    """What the client raised for a call that should fail, or "accepted"."""
    try:
        call()
        return "accepted"
    except Exception as error:  # every refusal is reported as it is
        return f"refused ({type(error).__name__}): {error}"


def main():
    base_url, key, memory_id = sys.argv[1:4]
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
    print(json.dumps(report))


if __name__ == "__main__":
    main()
