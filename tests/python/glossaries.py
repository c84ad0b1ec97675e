"""Drives Glossa's glossary endpoints with the official Python client library, changing only the
base URL (and the authorization scheme, which the client spells in its vendor's name). Prints what
it got back as one JSON document, for the end-to-end test to check.

Usage: glossaries.py BASE_URL DEVELOPER_KEY
"""

import json
import sys

import deepl
from deepl.api_data import MultilingualGlossaryDictionaryEntries


def monolingual(info):
    return {
        "glossary_id": info.glossary_id,
        "name": info.name,
        "ready": info.ready,
        "source_lang": info.source_lang,
        "target_lang": info.target_lang,
        "entry_count": info.entry_count,
        "creation_time": info.creation_time.isoformat(),
    }


def multilingual(info):
    return {
        "glossary_id": info.glossary_id,
        "name": info.name,
        "dictionaries": [
            [dictionary.source_lang, dictionary.target_lang, dictionary.entry_count]
            for dictionary in info.dictionaries
        ],
    }


def refusal(call):
    """What the client raised for a call that should fail, or "accepted"."""
    try:
        call()
        return "accepted"
    except deepl.GlossaryNotFoundException as error:
        return f"not found: {error}"
    except Exception as error:  # any other refusal is reported as it is
        return f"refused ({type(error).__name__}): {error}"


def one_glossary(client):
    created = client.create_glossary("Client terms", "EN", "DE", {"house": "Haus", "car": "Auto"})
    report = {
        "created": monolingual(created),
        "listed": [info.glossary_id for info in client.list_glossaries()],
        "got": monolingual(client.get_glossary(created.glossary_id)),
        "entries": client.get_glossary_entries(created),
        "translated": client.translate_text(
            "The house and the car.", source_lang="EN", target_lang="DE", glossary=created
        ).text,
    }
    client.delete_glossary(created)
    report["after_delete"] = refusal(lambda: client.get_glossary(created.glossary_id))
    return report


def several_dictionaries(client):
    created = client.create_multilingual_glossary(
        "Client dictionaries",
        [
            MultilingualGlossaryDictionaryEntries("EN", "DE", {"house": "Haus"}),
            MultilingualGlossaryDictionaryEntries("EN", "FR", {"house": "maison", "car": "voiture"}),
        ],
    )
    report = {"created": multilingual(created)}
    report["entries_de"] = client.get_multilingual_glossary_entries(created, "EN", "DE").dictionaries[0].entries

    updated = client.update_multilingual_glossary_dictionary(
        created, MultilingualGlossaryDictionaryEntries("EN", "DE", {"house": "Gebäude", "car": "Auto"})
    )
    report["updated"] = multilingual(updated)
    report["entries_de_updated"] = client.get_multilingual_glossary_entries(created, "EN", "DE").dictionaries[0].entries

    replaced = client.replace_multilingual_glossary_dictionary(
        created, MultilingualGlossaryDictionaryEntries("EN", "FR", {"bicycle": "vélo"})
    )
    report["replaced"] = [replaced.source_lang, replaced.target_lang, replaced.entry_count]
    report["entries_fr_replaced"] = client.get_multilingual_glossary_entries(created, "EN", "FR").dictionaries[0].entries

    current = client.get_multilingual_glossary(created.glossary_id)
    report["translated_de"] = client.translate_text(
        "The house and the car.", source_lang="EN", target_lang="DE", glossary=current
    ).text
    report["renamed"] = client.update_multilingual_glossary_name(created, "Renamed dictionaries").name
    report["listed"] = [multilingual(info) for info in client.list_multilingual_glossaries()]

    client.delete_multilingual_glossary_dictionary(created, source_lang="EN", target_lang="FR")
    report["after_dictionary_delete"] = multilingual(client.get_multilingual_glossary(created.glossary_id))
    report["deleted_dictionary_entries"] = refusal(
        lambda: client.get_multilingual_glossary_entries(created, "EN", "FR")
    )

    client.delete_multilingual_glossary(created)
    report["after_delete"] = refusal(lambda: client.get_multilingual_glossary(created.glossary_id))
    return report


def main():
    base_url, key = sys.argv[1], sys.argv[2]
    client = deepl.DeepLClient(key, server_url=base_url)
    client.headers["Authorization"] = f"Service-Auth-Key {key}"
    report = {"one": one_glossary(client), "several": several_dictionaries(client)}
    print(json.dumps(report))


if __name__ == "__main__":
    main()
