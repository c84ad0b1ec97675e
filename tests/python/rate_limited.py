"""Drives Glossa with the official Python client library against a key whose request rate is low,
so that some requests are answered 429: the client must wait, retry, and end every call in
success. Prints the translations, how many retries the client logged, and the usage.

Usage: rate_limited.py BASE_URL DEVELOPER_KEY
"""

import json
import logging
import sys

import deepl

TEXTS = ["One.", "Two.", "Three.", "Four."]


class RetryCounter(logging.Handler):
    """Counts the client's retries, which it logs before each one."""

    def __init__(self):
        super().__init__(level=logging.INFO)
        self.retries = 0

    def emit(self, record):
        if record.getMessage().startswith("Starting retry"):
            self.retries += 1


def main():
    base_url, key = sys.argv[1], sys.argv[2]
    counter = RetryCounter()
    logger = logging.getLogger(deepl.__name__)
    logger.setLevel(logging.INFO)
    logger.addHandler(counter)

    translator = deepl.Translator(key, server_url=base_url)
    translator.headers["Authorization"] = f"Service-Auth-Key {key}"
    texts = [
        translator.translate_text(text, source_lang="EN", target_lang="DE").text for text in TEXTS
    ]
    usage = translator.get_usage()
    print(json.dumps({"texts": texts, "retries": counter.retries, "usage": usage.character.count}))


if __name__ == "__main__":
    main()
