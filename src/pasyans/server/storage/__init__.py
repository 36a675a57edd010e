"""The database: engines and sessions, tables, queries, migrations, group commit and WAL
checkpoints."""
