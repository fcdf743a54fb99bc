import type {
  AdminPinResponse,
  CreatePatientRequest,
  CreatePatientResult,
  CreateStudyRequest,
  GeneratePinRequest,
  GeneratePinResponse,
  RespondentEntitiesRequest,
  RespondentEntitiesResponse,
  RespondentSearch,
  RespondentSearchResponse,
  StartOptions,
  SurveyStartSettings,
} from "../../../lib/wasm";
import { surveyRequest } from "./http";

/** Staff start on the kiosk (spec 01 §2.5, §7). */
export function loadSurveySettings(): Promise<SurveyStartSettings> {
  return surveyRequest("GET", "/api/survey/SurveySettings");
}

export function checkAdminPin(adminPin: string): Promise<AdminPinResponse> {
  return surveyRequest("GET", `/api/surveyIdentity/CheckAdminPin?adminPin=${encodeURIComponent(adminPin)}`);
}

export function searchRespondents(search: RespondentSearch): Promise<RespondentSearchResponse> {
  return surveyRequest("POST", "/api/v2/survey/searchRespondents", search);
}

export function loadRespondentEntities(req: RespondentEntitiesRequest): Promise<RespondentEntitiesResponse> {
  return surveyRequest("POST", "/api/v2/survey/loadRespondentEntities", req);
}

export function loadStartOptions(req: RespondentEntitiesRequest): Promise<StartOptions> {
  return surveyRequest("POST", "/api/v2/survey/startOptions", req);
}

export function generatePin(req: GeneratePinRequest): Promise<GeneratePinResponse> {
  return surveyRequest("POST", "/api/v2/survey/generatePin", req);
}

/** Spec 01 §7: create a patient (from ssn) or a study (from respondent id). */
export function createPatient(req: CreatePatientRequest): Promise<CreatePatientResult> {
  return surveyRequest("PUT", "/magview.api/patient/add", req);
}

export function createStudy(req: CreateStudyRequest): Promise<CreatePatientResult> {
  return surveyRequest("PUT", "/magview.api/studies/create", req);
}
