"""Tests of the inference service; run from services/inference with
``python -m unittest discover -s tests -t .``."""
