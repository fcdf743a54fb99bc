-- Issue 18: the techpad tablet app's users (spec 04 §6 leaves the roles open). A technologist
-- signs in at the staff door and reads the techpad configuration.
INSERT INTO roles (name, description) VALUES ('Technologist', 'Technologist');
