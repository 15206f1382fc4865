"""The comparison report wing: ``bleucli compare``, its model, HTML page, Markdown and JSON."""
