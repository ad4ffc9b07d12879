from django.contrib import admin
from django.contrib.auth.views import LoginView
from django.urls import include, path

from games.club_forms import LoginForm
from games.views import accounts as account_views
from games.views import clubs as club_views
from rummy_site import pwa, views
from rummy_site.languages import language_patterns

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    # The service worker at the root: it can only control the paths under its own address.
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("rummy_site.api_urls")),
]
# Each page at /<language>/… and, in the reader's language, without a prefix.
urlpatterns += language_patterns(
    path("", views.home, name="home"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("offline/", pwa.offline, name="offline"),
    path("", include("games.urls")),
    path("", include("tournaments.urls")),
    path("", include("federations.urls")),
    path("accounts/signup/", club_views.signup, name="signup"),
    path("accounts/profile/", club_views.account, name="account"),
    path("accounts/login/", LoginView.as_view(authentication_form=LoginForm), name="login"),
    path("accounts/sessions/", account_views.account_sessions, name="account_sessions"),
    path("accounts/reset/link/", account_views.reset_link_use_view, name="reset_link_use"),
    path("accounts/reset/links/new/", account_views.admin_reset_link, name="admin_reset_link"),
    path("accounts/password_reset/", account_views.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
)
