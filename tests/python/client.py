"""Drives Glossa with the official Python client library, changing only the base URL (and the
authorization scheme, which the client spells in its vendor's name). Prints what it got back as
one JSON document, for the end-to-end test to check.

Usage: client.py BASE_URL DEVELOPER_KEY
"""

import json
import sys

import deepl


def main():
    base_url, key = sys.argv[1], sys.argv[2]
    translator = deepl.Translator(key, server_url=base_url)
    translator.headers["Authorization"] = f"Service-Auth-Key {key}"

    single = translator.translate_text(
        "Hello, world!", source_lang="EN", target_lang="DE", extra_body_parameters={"show_billed_characters": True}
    )
    several = translator.translate_text(["One.", "Two."], source_lang="EN", target_lang="FR", formality="prefer_more")
    tagged = translator.translate_text(
        "<p>Hello <b>world</b></p>", source_lang="EN", target_lang="ES", tag_handling="xml"
    )
    detected = translator.translate_text("Das ist ein schöner Tag, und wir gehen spazieren.", target_lang="EN-GB")
    usage = translator.get_usage()
    report = {
        "single": {
            "text": single.text,
            "detected_source_lang": single.detected_source_lang,
            "billed_characters": single.billed_characters,
        },
        "several": [result.text for result in several],
        "tagged": tagged.text,
        "detected": detected.detected_source_lang,
        "usage": {"count": usage.character.count, "limit": usage.character.limit},
        "source_languages": len(translator.get_source_languages()),
        "target_languages": len(translator.get_target_languages()),
        "glossary_pairs": len(translator.get_glossary_languages()),
    }
    try:
        translator.translate_text("Hello", target_lang="XX")
        report["bad_target"] = "accepted"
    except Exception as error:  # the client raises its own exception types; any refusal will do
        report["bad_target"] = f"refused: {error}"
    print(json.dumps(report))


if __name__ == "__main__":
    main()
