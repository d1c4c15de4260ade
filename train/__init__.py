"""Training, tournaments and export for gridiron_env (imports torch and SB3 lazily)."""
