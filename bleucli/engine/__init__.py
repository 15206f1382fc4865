"""The run engine: a scoring run from options to results (pipeline), its workers (executor) and reducers."""
