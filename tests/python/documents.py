"""Drives Glossa's document translation with the official Python client library, changing only the
base URL (and the authorization scheme, which the client spells in its vendor's name): a txt file
translated in one call (upload, status until done, download) with a glossary and a formality; an
html page uploaded as bytes, its status read, waited for and downloaded step by step; a second
download and a status call after it; and uploads the application refuses. Prints what it got back
as one JSON document.

Usage: documents.py BASE_URL DEVELOPER_KEY GLOSSARY_ID TXT_FILE TXT_OUTPUT HTML_FILE HTML_OUTPUT FORMALITY
"""

import json
import sys

import deepl


def refusal(call):
    """What the client raised for a call that should fail, or "accepted"."""
    try:
        call()
        return "accepted"
    except Exception as error:  # every refusal is reported as it is
        return f"refused ({type(error).__name__}): {error}"


def status_info(status):
    return {"status": status.status.value, "done": status.done, "billed_characters": status.billed_characters}


def main():
    base_url, key, glossary_id, txt_path, txt_output, html_path, html_output, formality = sys.argv[1:9]
    client = deepl.DeepLClient(key, server_url=base_url, send_platform_info=False)
    # The client names its vendor in the authorization scheme; Glossa's is Service-Auth-Key.
    client.headers["Authorization"] = f"Service-Auth-Key {key}"

    with open(txt_path, "rb") as source, open(txt_output, "wb") as output:
        translated = client.translate_document(
            source, output, source_lang="EN", target_lang="DE", formality=formality, glossary=glossary_id,
            timeout_s=60,
        )
    report = {"translated": status_info(translated)}

    with open(html_path, "rb") as page:
        content = page.read()
    handle = client.translate_document_upload(content, source_lang="EN", target_lang="FR", filename="page.html")
    report["handle"] = {"document_id": handle.document_id, "document_key": handle.document_key}
    report["first_status"] = client.translate_document_get_status(handle).status.value
    report["html_status"] = status_info(client.translate_document_wait_until_done(handle, timeout_s=60))
    with open(html_output, "wb") as output:
        client.translate_document_download(handle, output)
    report["downloaded_again"] = refusal(lambda: client.translate_document_download(handle))
    report["status_after_download"] = refusal(lambda: client.translate_document_get_status(handle))

    report["unknown_type"] = refusal(
        lambda: client.translate_document_upload(b"Hello.", target_lang="DE", filename="notes.xyz")
    )
    report["docx"] = refusal(
        lambda: client.translate_document_upload(b"PK not really", target_lang="DE", filename="report.docx")
    )
    report["same_language"] = refusal(
        lambda: client.translate_document_upload(b"Hallo.", source_lang="DE", target_lang="DE", filename="a.txt")
    )
    print(json.dumps(report))


if __name__ == "__main__":
    main()
