"""The layout number of the report's embedded data (page_model.py writes that layout): a module of its own, so the
fingerprints name it without importing the model (a rerun whose report is current never builds one)."""

PAYLOAD_SCHEMA = 1  # the layout of the report's embedded data, as page_model's classes write it
