/* Loads a CSS file with GTK's own parser (GtkCssProvider) and prints what
   GTK made of it; exit 1 on any parsing error. The named colours a
   libadwaita stylesheet defines (@define-color) are GTK CSS, the same
   syntax in GTK 3, which Debian's build dependencies here provide. */
#include <gtk/gtk.h>

static int errors = 0;

static void on_error(GtkCssProvider *p, GtkCssSection *s, GError *e, gpointer d) {
  fprintf(stderr, "line %u: %s\n", gtk_css_section_get_start_line(s) + 1, e->message);
  errors++;
}

int main(int argc, char **argv) {
  GtkCssProvider *p = gtk_css_provider_new();
  GError *err = NULL;
  g_signal_connect(p, "parsing-error", G_CALLBACK(on_error), NULL);
  gtk_css_provider_load_from_path(p, argv[1], &err);
  if (err) {
    fprintf(stderr, "%s\n", err->message);
    return 2;
  }
  printf("%s", gtk_css_provider_to_string(p));
  return errors ? 1 : 0;
}
