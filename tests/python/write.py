"""Drives Glossa's text improvement with the official Python client library, changing only the
base URL (and the authorization scheme, which the client spells in its vendor's name). Prints
what it got back as one JSON document, for the end-to-end test to check.

Usage: write.py BASE_URL DEVELOPER_KEY
"""

import json
import sys

import deepl


def main():
    base_url, key = sys.argv[1], sys.argv[2]
    client = deepl.DeepLClient(key, server_url=base_url)
    client.headers["Authorization"] = f"Service-Auth-Key {key}"

    single = client.rephrase_text("I has a apple.", target_lang="en-US")
    styled = client.rephrase_text(["We do not know.", "It is late."], target_lang="EN-US", style="casual")
    toned = client.rephrase_text("I think that the plan is good.", target_lang="en-US", tone="prefer_confident")
    report = {
        "single": {
            "text": single.text,
            "detected_source_language": single.detected_source_language,
            "target_language": single.target_language,
        },
        "styled": [result.text for result in styled],
        "toned": toned.text,
    }
    try:
        client.rephrase_text("Hola.", target_lang="es", style="business")
        report["refused"] = "accepted"
    except deepl.DeepLException as error:  # the client's own exception type for API errors
        report["refused"] = str(error)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
