"""Glossa's native inference service: model families served to Glossa's components over loopback HTTP.

Glossa's Wasm components cannot keep a model in memory between requests, so the models run here,
loaded once and kept warm. The pieces:

* :mod:`.models` reads the models folder that ``glossa models install`` writes, and notices changes;
* :mod:`.family` is what a model family offers the server (routes) and the checks on request bodies;
* :mod:`.batching` queues jobs and runs them in dynamic batches on one worker thread per family;
* :mod:`.translation` is the translation family (CTranslate2 with SentencePiece), with
  :mod:`.placeholders` for Glossa's inline placeholders;
* :mod:`.speech` is the speech recognition family (whisper models run by faster-whisper);
* :mod:`.server` is the HTTP server, and ``python -m glossa_inference`` the command line.
"""
