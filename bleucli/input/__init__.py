"""Input: reading lines safely, opening references and systems, aligned files, and cutting input for workers."""
