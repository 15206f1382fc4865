"""What every command is built from: output, error reporting and exit codes, shared option groups, help."""
