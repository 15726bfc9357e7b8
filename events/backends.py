"""The login's backend: Django's own, asked less of on every page."""

from django.contrib.auth import backends, get_user_model

from core.compiled import Compiled

# The user a session names, read by a query compiled once (core.compiled): every page a person
# opens asks it, and the ORM's building of it was half of what Django's get_user cost.
_USER = Compiled(lambda user_id: get_user_model()._default_manager.filter(pk=user_id))


class ModelBackend(backends.ModelBackend):
    """django.contrib.auth's ModelBackend, its passwords and permissions unchanged."""

    def get_user(self, user_id):
        if not isinstance(user_id, int):  # the session's key, as Django's pk field reads it
            return super().get_user(user_id)
        user = _USER.first(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None
