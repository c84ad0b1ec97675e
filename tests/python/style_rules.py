"""Drives Glossa's style rule endpoints with the official Python client library, changing only the
base URL (and the authorization scheme, which the client spells in its vendor's name). Prints what
it got back as one JSON document, for the end-to-end test to check.

Usage: style_rules.py BASE_URL DEVELOPER_KEY
"""

import json
import sys

import deepl


def info(rule):
    return {
        "style_id": rule.style_id,
        "name": rule.name,
        "language": rule.language,
        "version": rule.version,
        "creation_time": rule.creation_time.isoformat(),
        "updated_time": rule.updated_time.isoformat(),
    }


def instruction(item):
    return {"id": item.id, "label": item.label, "prompt": item.prompt, "source_language": item.source_language}


def refusal(call):
    """What the client raised for a call that should fail, or "accepted"."""
    try:
        call()
        return "accepted"
    except Exception as error:  # every refusal is reported as it is
        return f"refused ({type(error).__name__}): {error}"


def main():
    base_url, key = sys.argv[1:3]
    client = deepl.DeepLClient(key, server_url=base_url, send_platform_info=False)
    # The client names its vendor in the authorization scheme; Glossa's is Service-Auth-Key.
    client.headers["Authorization"] = f"Service-Auth-Key {key}"

    created = client.create_style_rule(
        "Client house style",
        "de",
        configured_rules={"punctuation": {"quotation_mark": "use_guillemets"}},
        custom_instructions=[{"label": "Brand", "prompt": "Never translate the word Glossa."}],
    )
    report = {"created": info(created)}
    report["created_rules"] = created.configured_rules.punctuation if created.configured_rules else None
    report["created_instructions"] = [instruction(item) for item in created.custom_instructions or []]
    report["listed"] = [rule.style_id for rule in client.get_all_style_rules()]
    report["listed_detailed"] = [
        len(rule.custom_instructions or []) for rule in client.get_all_style_rules(page=0, page_size=5, detailed=True)
    ]
    report["got"] = info(client.get_style_rule(created.style_id))
    report["renamed"] = info(client.update_style_rule_name(created, "Renamed house style"))
    updated = client.update_style_rule_configured_rules(
        created, {"numbers": {"decimal_separator": "use_comma_as_decimal_separator"}}
    )
    report["updated"] = info(updated)
    report["updated_rules"] = updated.configured_rules.numbers if updated.configured_rules else None

    added = client.create_style_rule_custom_instruction(created, "Tone", "Keep sentences short.", source_language="en")
    report["added"] = instruction(added)
    report["fetched"] = instruction(client.get_style_rule_custom_instruction(created, added.id))
    report["replaced"] = instruction(
        client.update_style_rule_custom_instruction(created, added.id, "Tone", "Keep sentences very short.")
    )
    client.delete_style_rule_custom_instruction(created, added.id)
    report["after_instruction_delete"] = refusal(lambda: client.get_style_rule_custom_instruction(created, added.id))

    translated = client.translate_text("It costs 3.5 euros.", source_lang="EN", target_lang="DE", style_rule=created)
    report["translated"] = translated.text
    report["wrong_language"] = refusal(
        lambda: client.translate_text("Hello", source_lang="EN", target_lang="FR", style_rule=created.style_id)
    )
    report["final_version"] = client.get_style_rule(created.style_id).version
    client.delete_style_rule(created)
    report["after_delete"] = refusal(lambda: client.get_style_rule(created.style_id))
    print(json.dumps(report))


if __name__ == "__main__":
    main()
