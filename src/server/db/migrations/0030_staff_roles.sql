CREATE TABLE "staff_roles" (
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_roles_user_id_role_pk" PRIMARY KEY("user_id","role"),
	CONSTRAINT "staff_roles_role_check" CHECK ("staff_roles"."role" in ('admin', 'lead', 'agent', 'partner-reviewer', 'auditor'))
);
--> statement-breakpoint
ALTER TABLE "staff_roles" ADD CONSTRAINT "staff_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Every console account so far could do everything: it keeps that as the admin role (docs/decisions/147-roles-and-permissions.md).
INSERT INTO "staff_roles" ("user_id", "role") SELECT "id", 'admin' FROM "users" WHERE "role" = 'admin';
--> statement-breakpoint
-- users.role says whether the account is staff; its roles follow it. An account made staff without
-- roles (the first admin, the command line's set-role, an older tool) holds the admin role, as a
-- console account always did; an account made a customer again holds none. A restore copies the
-- roles as they were.
CREATE FUNCTION users_staff_roles() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('bagspace.restoring', true), '') = 'on' THEN
    RETURN NULL;
  END IF;
  IF NEW.role = 'admin' THEN
    INSERT INTO staff_roles (user_id, role)
      SELECT NEW.id, 'admin' WHERE NOT EXISTS (SELECT 1 FROM staff_roles WHERE user_id = NEW.id);
  ELSE
    DELETE FROM staff_roles WHERE user_id = NEW.id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_staff_roles AFTER INSERT OR UPDATE OF role ON users
  FOR EACH ROW EXECUTE FUNCTION users_staff_roles();
