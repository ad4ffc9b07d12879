app_name = "federations"
urlpatterns: list = []
