"""Django's PostgreSQL backend with a health check that trusts a connection proven moments
ago (:mod:`config.postgresql.base`); the ``ENGINE`` of config/settings."""
